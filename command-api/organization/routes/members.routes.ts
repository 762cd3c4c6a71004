/// Members: leave, remove-member, update-member-role; and add-member, server-only in better-auth,
/// here on the server API (a server key, never a session).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import {
  SERVER_API_ERRORS,
  SERVER_API_SECURITY,
  serverActor,
  serverCallerOf,
} from '../../../http/guards/server-key.js'
import { Id, Role, Strict, TAGS } from '../../../http/organization/schemas.js'
import {
  MemberSchema,
  MemberWithUserSchema,
  memberJson,
  memberWithUserJson,
} from '../../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { userCaller } from '../organization-command.js'
import { addMember, leaveOrganization, removeMember, updateMemberRole } from '../organizations.js'
import type { OrganizationRoutesContext } from './route-context.js'

export const membersRoutes =
  (ctx: OrganizationRoutesContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.post(
      '/organization/leave',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Leave an organization (the only owner cannot)',
          tags: TAGS,
          body: Type.Object({ organizationId: Id }, Strict),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'MEMBER_NOT_FOUND',
              'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
            ),
            200: MemberWithUserSchema,
          },
        },
      },
      async (request) =>
        memberWithUserJson(
          await leaveOrganization(ctx, originOf(request), authOf(request), request.body.organizationId),
        ),
    )

    app.post(
      '/organization/remove-member',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Remove a member, by member id or email',
          tags: TAGS,
          body: Type.Object(
            {
              memberIdOrEmail: Type.String({ minLength: 1, maxLength: 320 }),
              organizationId: Type.Optional(Id),
            },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'MEMBER_NOT_FOUND',
              'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
              'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER',
            ),
            // With `user` when the member was named by email, as better-auth's lookup by email has it.
            200: Type.Object({ member: Type.Union([MemberWithUserSchema, MemberSchema]) }),
          },
        },
      },
      async (request) => {
        const removed = await removeMember(ctx, originOf(request), userCaller(authOf(request)), request.body)
        return { member: 'user' in removed ? memberWithUserJson(removed) : memberJson(removed) }
      },
    )

    app.post(
      '/organization/update-member-role',
      {
        preHandler: requireSession,
        schema: {
          summary: "Change a member's role (only an owner touches an owner)",
          tags: TAGS,
          body: Type.Object({ role: Role, memberId: Id, organizationId: Type.Optional(Id) }, Strict),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'MEMBER_NOT_FOUND',
              'ROLE_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER',
              'YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER',
            ),
            200: MemberSchema,
          },
        },
      },
      async (request) =>
        memberJson(await updateMemberRole(ctx, originOf(request), userCaller(authOf(request)), request.body)),
    )

    app.post(
      '/organization/add-member',
      {
        onRequest: ctx.serverApi.requireServerKey,
        schema: {
          summary: 'Add a user to an organization without an invitation (server API)',
          description:
            "better-auth's server-only `addMember`: the user joins with the role (and team) given, recorded as done by `server:<name>`. Refused to browser sessions. The membership limit applies; the per-user organization limit does not (as better-auth), though the membership counts against the user's later creates.",
          tags: TAGS,
          security: SERVER_API_SECURITY,
          body: Type.Object(
            { userId: Id, role: Role, organizationId: Type.Optional(Id), teamId: Type.Optional(Id) },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SERVER_API_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'TEAMS_NOT_ENABLED',
              ['USER_NOT_FOUND', 400],
              'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
              'TEAM_NOT_FOUND',
              'ORGANIZATION_NOT_FOUND',
              'ROLE_NOT_FOUND',
              'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
              'TEAM_MEMBER_LIMIT_REACHED',
            ),
            200: MemberSchema,
          },
        },
      },
      async (request) => {
        const actor = serverActor(serverCallerOf(request))
        return memberJson(await addMember(ctx, originOf(request), { kind: 'server', actor }, request.body))
      },
    )
  }
