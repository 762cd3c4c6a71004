/// GET /organization/invitation-preview?id=: what the portal's /accept-invitation/:id shows a person
/// who is signed out. better-auth's get-invitation needs a session (and the invitee's own), so a
/// signed-out invitee would see nothing about what they are asked to join; this Tessera route, with
/// no session, tells only the organization's name and the inviter's name, and only to whoever holds
/// the invitation's id (32 CSPRNG characters, sent to the invited address). Never the invited
/// address, the role, the inviter's address or any id: a leaked link reveals no more than that.
/// Unknown, answered, expired, or orphaned (organization gone, inviter no longer a member): one
/// answer, 400 'Invitation not found!', as get-invitation gives for the first three.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DomainError } from '../../domain/shared/errors.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import {
  findInvitation,
  findMemberWithUser,
  findOrganization,
} from '../../projections/organizations/organizations.repository.js'
import type { QueryContext } from '../context.js'

const notFound = () => new DomainError('INVITATION_NOT_FOUND', 400, 'Invitation not found!')

export const invitationPreviewRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/organization/invitation-preview',
      {
        schema: {
          summary: 'Who invites to what, for a signed-out invitee holding the invitation id (Tessera only)',
          tags: ['Organization'],
          querystring: Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) }),
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'INVITATION_NOT_FOUND'),
            200: Type.Object({
              organizationName: Type.String(),
              inviterName: Type.String(),
              expiresAt: Type.String({ format: 'date-time' }),
            }),
          },
        },
      },
      async (request) => {
        const invitation = await findInvitation(ctx.db, request.query.id)
        if (invitation?.status !== 'pending' || invitation.expires_at <= ctx.clock()) throw notFound()
        const [organization, inviter] = await Promise.all([
          findOrganization(ctx.db, invitation.organization_id),
          findMemberWithUser(ctx.db, invitation.organization_id, invitation.inviter_id),
        ])
        if (!organization || !inviter) throw notFound()
        return {
          organizationName: organization.name,
          inviterName: inviter.user.name,
          expiresAt: invitation.expires_at.toISOString(),
        }
      },
    )
  }
