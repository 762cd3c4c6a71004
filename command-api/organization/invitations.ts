/// Invitations: invite, accept, reject, cancel. An invitation lives in its organization's stream, so
/// accepting it and creating the member are one decision and one append: there is never an accepted
/// invitation without its member, nor the reverse, and two accepts for the last seat cannot both
/// win. Ids are 32 CSPRNG characters (unguessable), and the invitee's address is sealed under a
/// key of the invitee (`inviteeSubjectFor`).

import { AUTH_ERRORS, invalidBodyField } from '../../domain/errors.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { parseEmail } from '../../domain/user/email.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { newId } from '../../infra/crypto/tokens.js'
import { SubjectErasedError } from '../../infra/event-store/personal-data/keyring.js'
import { findInvitation, findMemberById } from '../../projections/organizations/organizations.repository.js'
import type { InvitationRow, MemberRow } from '../../projections/organizations/organizations.table.js'
import { findUserByEmail } from '../../projections/users/users.repository.js'
import type { CommandContext } from '../context.js'
import { withMembershipSeat } from './membership-seats.js'
import {
  actorOf,
  actorUserIdOf,
  type Caller,
  inviteeSubject,
  normalizeRoles,
  organizationPolicy,
  runOrganizationCommand,
  setSessionContext,
} from './organization-command.js'

const reread = async (ctx: CommandContext, invitationId: string): Promise<InvitationRow> => {
  const row = await findInvitation(ctx.db, invitationId)
  if (!row) throw AUTH_ERRORS.error('INTERNAL_SERVER_ERROR')
  return row
}

export const inviteMember = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: {
    email: string
    role: string | string[]
    organizationId?: string
    resend?: boolean
    teamId?: string | string[]
  },
): Promise<InvitationRow> => {
  const organizationId =
    input.organizationId || (caller.kind === 'user' ? caller.session.session.active_organization_id : null)
  if (!organizationId) throw AUTH_ERRORS.error('ORGANIZATION_NOT_FOUND')
  const email = parseEmail(input.email)
  const roles = normalizeRoles(input.role)
  if (roles.length === 0) throw invalidBodyField('role', 'must name at least one role')
  const teamIds = (input.teamId === undefined ? [] : [input.teamId].flat()).filter((id) => id.length > 0)
  const invitee = await findUserByEmail(ctx.db, email)
  const invite = async () =>
    runOrganizationCommand(
      ctx,
      origin,
      organizationId,
      {
        type: 'invite-member',
        actorUserId: actorUserIdOf(caller),
        invitationId: newId(),
        email,
        inviteeSubject: await inviteeSubject(ctx, email),
        roles,
        teamIds,
        resend: input.resend === true,
        inviteeUserId: invitee?.id ?? null,
        now: ctx.clock().toISOString(),
        policy: organizationPolicy(ctx.config),
      },
      actorOf(caller),
    )
  // The address's key was erased between naming it and sealing under it (its holder's account was
  // deleted meanwhile): named again, the next generation seals for whoever holds the address now.
  const { events } = await invite().catch((error: unknown) => {
    if (error instanceof SubjectErasedError) return invite()
    throw error
  })
  const made = events.find(
    (event) =>
      event.type === 'organization.invitation-created' || event.type === 'organization.invitation-renewed',
  )
  if (!made || !('inviteeSubject' in made.data)) throw AUTH_ERRORS.error('INTERNAL_SERVER_ERROR')
  return reread(ctx, made.data.invitationId)
}

/**
 * The checks better-auth makes before touching anything, in its order; the decision re-checks what
 * could change meanwhile (status, expiry, recipient, the membership limit) against the stream.
 */
const assertRecipient = (ctx: CommandContext, auth: FoundSession, invitation: InvitationRow) => {
  if (invitation.email.toLowerCase() !== auth.user.email.toLowerCase())
    throw AUTH_ERRORS.error('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION')
  if (ctx.config.organization.requireEmailVerificationOnInvitation && !auth.user.email_verified)
    throw AUTH_ERRORS.error('EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION')
}

export const acceptInvitation = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  invitationId: string,
): Promise<{ invitation: InvitationRow; member: MemberRow }> => {
  const now = ctx.clock()
  const invitation = await findInvitation(ctx.db, invitationId)
  if (invitation?.status !== 'pending' || invitation.expires_at <= now)
    throw AUTH_ERRORS.error('INVITATION_NOT_FOUND')
  assertRecipient(ctx, auth, invitation)
  const memberId = newId()
  const teamIds = invitation.team_id ? invitation.team_id.split(',') : []
  const teamMemberIds = teamIds.map(() => newId())
  const { events } = await withMembershipSeat(ctx, auth.user.id, 'join', (seat) =>
    runOrganizationCommand(
      ctx,
      origin,
      invitation.organization_id,
      {
        type: 'accept-invitation',
        invitationId,
        userId: auth.user.id,
        email: auth.user.email,
        memberId,
        seat,
        teamMemberIds,
        now: now.toISOString(),
        policy: organizationPolicy(ctx.config),
      },
      { type: 'user', userId: auth.user.id },
    ),
  )
  const joinedTeam = events.find((event) => event.type === 'organization.team-member-added')
  await setSessionContext(
    ctx,
    origin,
    auth,
    invitation.organization_id,
    joinedTeam && 'teamId' in joinedTeam.data ? joinedTeam.data.teamId : null,
  )
  const member = await findMemberById(ctx.db, memberId)
  if (!member) throw AUTH_ERRORS.error('INTERNAL_SERVER_ERROR')
  return { invitation: await reread(ctx, invitationId), member }
}

export const rejectInvitation = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  invitationId: string,
): Promise<InvitationRow> => {
  const invitation = await findInvitation(ctx.db, invitationId)
  if (invitation?.status !== 'pending')
    throw new DomainError('INVITATION_NOT_FOUND', 400, 'Invitation not found!')
  assertRecipient(ctx, auth, invitation)
  await runOrganizationCommand(
    ctx,
    origin,
    invitation.organization_id,
    {
      type: 'reject-invitation',
      invitationId,
      userId: auth.user.id,
      email: auth.user.email,
      now: ctx.clock().toISOString(),
    },
    { type: 'user', userId: auth.user.id },
  )
  return reread(ctx, invitationId)
}

export const cancelInvitation = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  invitationId: string,
): Promise<InvitationRow> => {
  const invitation = await findInvitation(ctx.db, invitationId)
  if (!invitation) throw AUTH_ERRORS.error('INVITATION_NOT_FOUND')
  await runOrganizationCommand(
    ctx,
    origin,
    invitation.organization_id,
    {
      type: 'cancel-invitation',
      actorUserId: actorUserIdOf(caller),
      invitationId,
      policy: organizationPolicy(ctx.config),
    },
    actorOf(caller),
  )
  return reread(ctx, invitationId)
}
