/// Invitations as better-auth 1.7 reads them: one addressed to the caller, an organization's, and
/// the caller's own pending ones (to a verified address only).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { Id, TAGS } from '../../../http/organization/schemas.js'
import { InvitationSchema, invitationJson } from '../../../http/presenters/organization-presenters.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../../infra/http/openapi.js'
import {
  findInvitation,
  findMember,
  findMemberWithUser,
  findOrganization,
  listInvitations,
  listInvitationsOfEmail,
} from '../../../projections/organizations/organizations.repository.js'
import { type OrganizationQueryContext, SIGNED_IN } from './route-context.js'

export const invitationsQueryRoutes =
  (ctx: OrganizationQueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSessionSaying, optionalSession } = sessionGuards(ctx)
    // The spec's and better-auth's wording for the invitation reads.
    const requireSessionForInvitations = requireSessionSaying('Not authenticated')
    const verificationRequired = (emailVerified: boolean) =>
      ctx.config.organization.requireEmailVerificationOnInvitation && !emailVerified

    app.get(
      '/organization/get-invitation',
      {
        preHandler: requireSessionForInvitations,
        schema: {
          summary: 'A pending invitation addressed to the caller, with its organization and inviter',
          tags: TAGS,
          querystring: Type.Object({ id: Id }),
          response: {
            ...errorResponses(
              ...SIGNED_IN,
              'INVITATION_NOT_FOUND',
              'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION',
              'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION',
              'ORGANIZATION_NOT_FOUND',
              'INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION',
            ),
            200: Type.Object({
              ...InvitationSchema.properties,
              organizationName: Type.String(),
              organizationSlug: Type.String(),
              inviterEmail: Type.String(),
            }),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const invitation = await findInvitation(ctx.db, request.query.id)
        if (invitation?.status !== 'pending' || invitation.expires_at <= ctx.clock())
          throw new DomainError('INVITATION_NOT_FOUND', 400, 'Invitation not found!')
        if (invitation.email.toLowerCase() !== auth.user.email.toLowerCase())
          throw AUTH_ERRORS.error('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION')
        if (verificationRequired(auth.user.email_verified))
          throw AUTH_ERRORS.error('EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION')
        const organization = await findOrganization(ctx.db, invitation.organization_id)
        if (!organization) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
        const inviter = await findMemberWithUser(ctx.db, invitation.organization_id, invitation.inviter_id)
        if (!inviter) throw AUTH_ERRORS.error('INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION')
        return {
          ...invitationJson(invitation),
          organizationName: organization.name,
          organizationSlug: organization.slug,
          inviterEmail: inviter.user.email,
        }
      },
    )

    app.get(
      '/organization/list-invitations',
      {
        preHandler: requireSessionForInvitations,
        schema: {
          summary: "An organization's invitations, whatever their status",
          tags: TAGS,
          querystring: Type.Object({ organizationId: Type.Optional(Id) }),
          response: {
            ...errorResponses(...SIGNED_IN, 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION'),
            200: Type.Array(InvitationSchema),
          },
        },
      },
      async (request) => {
        const auth = authOf(request)
        const organizationId = request.query.organizationId || auth.session.active_organization_id
        if (!organizationId) throw new DomainError('BAD_REQUEST', 400, 'Organization ID is required')
        if (!(await findMember(ctx.db, organizationId, auth.user.id)))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
        return (await listInvitations(ctx.db, organizationId)).map(invitationJson)
      },
    )

    app.get(
      '/organization/list-user-invitations',
      {
        schema: {
          summary: "The pending invitations to the caller's (verified) address",
          tags: TAGS,
          // better-auth takes `email` only from server-side calls in its own process; over HTTP it refuses it.
          querystring: Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) }),
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION'),
            200: Type.Array(Type.Object({ ...InvitationSchema.properties, organizationName: Type.String() })),
          },
        },
      },
      async (request) => {
        // better-auth's checks, in its order: the address first, signed in or not; then the session.
        if (request.query.email)
          throw new DomainError('BAD_REQUEST', 400, 'User email cannot be passed for client side API calls.')
        const auth = await optionalSession(request)
        if (!auth)
          throw new DomainError('BAD_REQUEST', 400, 'Missing session headers, or email query parameter.')
        // Anyone may type any address at sign-up: only a verified one proves the invitations are theirs.
        if (!auth.user.email_verified) throw AUTH_ERRORS.error('EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION')
        const rows = await listInvitationsOfEmail(ctx.db, auth.user.email)
        return rows
          .filter((row) => row.status === 'pending')
          .map((row) => ({ ...invitationJson(row), organizationName: row.organization_name }))
      },
    )
  }
