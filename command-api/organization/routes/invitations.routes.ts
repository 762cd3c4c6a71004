/// Invitations: invite-member (mailed, so rate limited per recipient and per inviter), accept,
/// reject and cancel.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Id, Role, Strict, TAGS } from '../../../http/organization/schemas.js'
import {
  InvitationSchema,
  invitationJson,
  MemberSchema,
  memberJson,
} from '../../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses, SIGNED_IN_POST_ERRORS } from '../../../infra/http/openapi.js'
import { limitInviter, limitRecipient } from '../../../infra/http/rate-limit.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { acceptInvitation, cancelInvitation, inviteMember, rejectInvitation } from '../invitations.js'
import { userCaller } from '../organization-command.js'
import type { OrganizationRoutesContext } from './route-context.js'

const InvitationIdBody = Type.Object({ invitationId: Id }, Strict)
const RECIPIENT_ERRORS = [
  'INVITATION_NOT_FOUND',
  'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION',
  'EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION',
] as const

export const invitationsRoutes =
  (ctx: OrganizationRoutesContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.post(
      '/organization/invite-member',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Invite someone by email, with a role (and teams); mails them a link',
          tags: TAGS,
          body: Type.Object(
            {
              email: Type.String({ maxLength: 320 }),
              role: Role,
              organizationId: Type.Optional(Id),
              resend: Type.Optional(Type.Boolean()),
              teamId: Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 16 })])),
            },
            Strict,
          ),
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'ORGANIZATION_NOT_FOUND',
              'INVALID_EMAIL',
              'MEMBER_NOT_FOUND',
              'ROLE_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION',
              'YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE',
              'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
              'USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION',
              'INVITATION_LIMIT_REACHED',
              'TEAM_NOT_FOUND',
              'TEAM_MEMBER_LIMIT_REACHED',
            ),
            200: InvitationSchema,
          },
        },
      },
      async (request, reply) => {
        // The invitation is mailed: nobody may mail-bomb an address through invitations either.
        await limitRecipient(reply, request.body.email)
        // And nobody may send invitation mails by the thousand to strangers (rate-limit.ts).
        await limitInviter(reply, authOf(request).user.id)
        return invitationJson(
          await inviteMember(ctx, originOf(request), userCaller(authOf(request)), request.body),
        )
      },
    )

    app.post(
      '/organization/accept-invitation',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Accept an invitation: become a member, and make the organization active',
          tags: TAGS,
          body: InvitationIdBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              ...RECIPIENT_ERRORS,
              'ORGANIZATION_MEMBERSHIP_LIMIT_REACHED',
              'USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION',
            ),
            200: Type.Object({ invitation: InvitationSchema, member: MemberSchema }),
          },
        },
      },
      async (request) => {
        const { invitation, member } = await acceptInvitation(
          ctx,
          originOf(request),
          authOf(request),
          request.body.invitationId,
        )
        return { invitation: invitationJson(invitation), member: memberJson(member) }
      },
    )

    app.post(
      '/organization/reject-invitation',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Reject an invitation',
          tags: TAGS,
          body: InvitationIdBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, ...RECIPIENT_ERRORS),
            200: Type.Object({ invitation: InvitationSchema, member: Type.Null() }),
          },
        },
      },
      async (request) => ({
        invitation: invitationJson(
          await rejectInvitation(ctx, originOf(request), authOf(request), request.body.invitationId),
        ),
        member: null,
      }),
    )

    app.post(
      '/organization/cancel-invitation',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Cancel a pending invitation',
          tags: TAGS,
          body: InvitationIdBody,
          response: {
            ...errorResponses(
              ...SIGNED_IN_POST_ERRORS,
              'INVITATION_NOT_FOUND',
              'MEMBER_NOT_FOUND',
              'YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION',
            ),
            200: InvitationSchema,
          },
        },
      },
      async (request) =>
        invitationJson(
          await cancelInvitation(
            ctx,
            originOf(request),
            userCaller(authOf(request)),
            request.body.invitationId,
          ),
        ),
    )
  }
