/// Teams (registered only when `organization.teams.enabled`): create, update, remove, add and
/// remove a member, set the session's active team.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Id, Message, Name, Nullable, Strict, TAGS } from '../../../http/organization/schemas.js'
import {
  TeamMemberSchema,
  TeamSchema,
  teamJson,
  teamMemberJson,
} from '../../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { userCaller } from '../organization-command.js'
import {
  addTeamMember,
  createTeam,
  removeTeam,
  removeTeamMember,
  setActiveTeam,
  updateTeam,
} from '../teams.js'
import type { OrganizationRoutesContext } from './route-context.js'

const TeamMemberBody = Type.Object({ teamId: Id, userId: Id, organizationId: Type.Optional(Id) }, Strict)

export const teamsRoutes =
  (ctx: OrganizationRoutesContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.post(
      '/organization/create-team',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Create a team',
          tags: TAGS,
          body: Type.Object({ name: Name, organizationId: Type.Optional(Id) }, Strict),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'ORGANIZATION_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION',
              'YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS',
            ),
            200: TeamSchema,
          },
        },
      },
      async (request) =>
        teamJson(await createTeam(ctx, originOf(request), userCaller(authOf(request)), request.body)),
    )

    app.post(
      '/organization/update-team',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Rename a team',
          tags: TAGS,
          body: Type.Object(
            {
              teamId: Id,
              data: Type.Object({ name: Type.Optional(Name), organizationId: Type.Optional(Id) }, Strict),
            },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'TEAM_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM',
            ),
            200: TeamSchema,
          },
        },
      },
      async (request) =>
        teamJson(await updateTeam(ctx, originOf(request), userCaller(authOf(request)), request.body)),
    )

    app.post(
      '/organization/remove-team',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Remove a team (not the last one, nor your own active team)',
          tags: TAGS,
          body: Type.Object({ teamId: Id, organizationId: Type.Optional(Id) }, Strict),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'TEAM_NOT_FOUND',
              'UNABLE_TO_REMOVE_LAST_TEAM',
              'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM',
              'YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION',
            ),
            200: Message,
          },
        },
      },
      async (request) => {
        await removeTeam(ctx, originOf(request), userCaller(authOf(request)), request.body)
        return { message: 'Team removed successfully.' }
      },
    )

    app.post(
      '/organization/add-team-member',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Add a member of the organization to a team',
          tags: TAGS,
          body: TeamMemberBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER',
              'TEAM_NOT_FOUND',
              'TEAM_MEMBER_LIMIT_REACHED',
            ),
            200: TeamMemberSchema,
          },
        },
      },
      async (request) =>
        teamMemberJson(
          await addTeamMember(ctx, originOf(request), userCaller(authOf(request)), request.body),
        ),
    )

    app.post(
      '/organization/remove-team-member',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Take a member out of a team',
          tags: TAGS,
          body: TeamMemberBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'NO_ACTIVE_ORGANIZATION',
              'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER',
              'TEAM_NOT_FOUND',
              'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
            ),
            200: Message,
          },
        },
      },
      async (request) => {
        await removeTeamMember(ctx, originOf(request), userCaller(authOf(request)), request.body)
        return { message: 'Team member removed successfully.' }
      },
    )

    app.post(
      '/organization/set-active-team',
      {
        preHandler: requireSession,
        schema: {
          summary: "Set (or clear, with null) the session's active team",
          tags: TAGS,
          body: Type.Object({ teamId: Type.Optional(Nullable(Id)) }, Strict),
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'NO_ACTIVE_ORGANIZATION', 'TEAM_NOT_FOUND', [
              'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
              403,
            ]),
            200: Nullable(TeamSchema),
          },
        },
      },
      async (request) => {
        const team = await setActiveTeam(ctx, originOf(request), authOf(request), request.body.teamId)
        return team && teamJson(team)
      },
    )
  }
