/// Invitations: invite, accept, reject, cancel. An invitation lives in its organization's stream, so
/// accepting it and creating the member are one decision and one append: there is never an accepted
/// invitation without its member, nor the reverse, and two accepts for the last seat cannot both
/// win. Ids are 32 CSPRNG characters (unguessable), and the invitee's address is sealed under a
/// key of the invitee (`inviteeSubjectFor`).

import { AUTH_ERRORS, invalidBodyField } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { parseEmail } from '../../domain/user/email.js'
import type { InvitationRow, MemberRow } from '../../http/ports/organization-lookup.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { newId } from '../../infra/crypto/tokens.js'
import { SubjectErasedError } from '../../infra/event-store/personal-data/keyring.js'
import type { CommandContext } from '../context.js'
import { withMembershipSeat } from './membership-seats.js'
import { activeOf, invitationAnswer, memberAnswer } from './organization-answers.js'
import {
  actorOf,
  actorUserIdOf,
  type Caller,
  inviteeSubject,
  normalizeRoles,
  runOrganizationCommand,
  setSessionContext,
} from './organization-command.js'

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
  const invitee = await ctx.lookups.users.byEmail(email)
  const invitationId = newId()
  const invite = async () =>
    runOrganizationCommand(
      ctx,
      origin,
      organizationId,
      {
        type: 'invite-member',
        actorUserId: actorUserIdOf(caller),
        invitationId,
        email,
        inviteeSubject: await inviteeSubject(ctx, email),
        roles,
        teamIds,
        resend: input.resend === true,
        inviteeUserId: invitee?.id ?? null,
        now: ctx.clock().toISOString(),
      },
      actorOf(caller),
    )
  // The address's key was erased between naming it and sealing under it (its holder's account was
  // deleted meanwhile): named again, the next generation seals for whoever holds the address now.
  const { events, state } = await invite().catch((error: unknown) => {
    if (error instanceof SubjectErasedError) return invite()
    throw error
  })
  // A resend renews the pending invitation to the address instead of making one.
  const renewed = events.find((event) => event.type === 'organization.invitation-renewed')
  return invitationAnswer(state, renewed?.data.invitationId ?? invitationId)
}

/** The organization an invitation belongs to; null when no invitation has that id. */
const organizationOfInvitation = async (ctx: CommandContext, invitationId: string) =>
  (await ctx.lookups.organizations.findInvitation(invitationId))?.organization_id ?? null

export const acceptInvitation = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  invitationId: string,
): Promise<{ invitation: InvitationRow; member: MemberRow }> => {
  const invitation = await ctx.lookups.organizations.findInvitation(invitationId)
  const memberId = newId()
  // Fresh ids for the teams the invitation names (the decider skips teams gone meanwhile).
  const teamMemberIds = (invitation?.team_id ? invitation.team_id.split(',') : []).map(() => newId())
  const { events, state } = await withMembershipSeat(ctx, auth.user.id, 'join', (seat) =>
    runOrganizationCommand(
      ctx,
      origin,
      invitation?.organization_id ?? null,
      {
        type: 'accept-invitation',
        invitationId,
        userId: auth.user.id,
        email: auth.user.email,
        emailVerified: auth.user.email_verified,
        memberId,
        seat,
        teamMemberIds,
        now: ctx.clock().toISOString(),
      },
      { type: 'user', userId: auth.user.id },
    ),
  )
  const joinedTeam = events.find((event) => event.type === 'organization.team-member-added')
  await setSessionContext(ctx, origin, auth, activeOf(state).organizationId, joinedTeam?.data.teamId ?? null)
  return { invitation: invitationAnswer(state, invitationId), member: memberAnswer(state, memberId) }
}

export const rejectInvitation = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  invitationId: string,
): Promise<InvitationRow> => {
  const { state } = await runOrganizationCommand(
    ctx,
    origin,
    await organizationOfInvitation(ctx, invitationId),
    {
      type: 'reject-invitation',
      invitationId,
      userId: auth.user.id,
      email: auth.user.email,
      emailVerified: auth.user.email_verified,
      now: ctx.clock().toISOString(),
    },
    { type: 'user', userId: auth.user.id },
  )
  return invitationAnswer(state, invitationId)
}

export const cancelInvitation = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  invitationId: string,
): Promise<InvitationRow> => {
  const { state } = await runOrganizationCommand(
    ctx,
    origin,
    await organizationOfInvitation(ctx, invitationId),
    { type: 'cancel-invitation', actorUserId: actorUserIdOf(caller), invitationId },
    actorOf(caller),
  )
  return invitationAnswer(state, invitationId)
}
