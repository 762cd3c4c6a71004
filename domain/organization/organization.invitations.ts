/// Invitations: invite (or renew), accept (the member joins in the same decision), reject, cancel.

import type { OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent } from './organization.events.js'
import { memberAddition } from './organization.members.js'
import { actingMember, assertKnownRoles, type Command, fail } from './organization.rules.js'
import {
  type ActiveOrganization,
  type Invitation,
  isCreator,
  isPendingAt,
  memberOfUser,
} from './organization.state.js'
import { teamAddition } from './organization.teams.js'

export const invite = (
  command: Command<'invite-member'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const { now } = command
  const actor = actingMember(
    state,
    command.actorUserId,
    { invitation: ['create'] },
    () => fail('MEMBER_NOT_FOUND'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION'),
  )
  assertKnownRoles(state, command.roles)
  if (actor && !isCreator(actor.role, policy) && command.roles.includes(policy.creatorRole))
    fail('YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE')
  if (command.inviteeUserId !== null && memberOfUser(state, command.inviteeUserId))
    fail('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION')
  const pending = [...state.invitations.values()].filter((invitation) => isPendingAt(invitation, now))
  const expiresAt = new Date(Date.parse(now) + policy.invitationExpiresInSeconds * 1000).toISOString()
  const already = pending.find((invitation) => invitation.email === command.email)
  if (already) {
    if (!command.resend) fail('USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION')
    return [
      {
        type: 'organization.invitation-renewed',
        data: {
          organizationId: state.organizationId,
          invitationId: already.invitationId,
          inviteeSubject: already.inviteeSubject,
          expiresAt,
        },
      },
    ]
  }
  if (pending.length >= policy.invitationLimit) fail('INVITATION_LIMIT_REACHED')
  for (const teamId of command.teamIds) {
    const team = state.teams.get(teamId) ?? fail('TEAM_NOT_FOUND')
    const limit = policy.teams.maximumMembersPerTeam
    if (limit !== null && team.userIds.size >= limit) fail('TEAM_MEMBER_LIMIT_REACHED')
  }
  return [
    {
      type: 'organization.invitation-created',
      data: {
        organizationId: state.organizationId,
        invitationId: command.invitationId,
        email: command.email,
        inviteeSubject: command.inviteeSubject,
        roles: [...command.roles],
        teamIds: [...command.teamIds],
        // The server invites in the name of nobody in particular: better-auth's inviterId is required.
        inviterId: command.actorUserId ?? 'server',
        expiresAt,
        createdAt: now,
      },
    },
  ]
}

/**
 * Only the invited address answers an invitation, and (when configured) only once it is verified:
 * better-auth's order, after the invitation itself was found.
 */
const assertRecipient = (
  invitation: Invitation,
  command: { email: string; emailVerified: boolean },
  policy: OrganizationPolicy,
) => {
  if (invitation.email.toLowerCase() !== command.email.toLowerCase())
    fail('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION')
  if (policy.requireEmailVerificationOnInvitation && !command.emailVerified)
    fail('EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION')
}

export const accept = (
  command: Command<'accept-invitation'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const invitation = state.invitations.get(command.invitationId)
  if (!invitation || !isPendingAt(invitation, command.now)) return fail('INVITATION_NOT_FOUND')
  assertRecipient(invitation, command, policy)
  const { organizationId } = state
  const member = memberAddition(
    state,
    {
      memberId: command.memberId,
      userId: command.userId,
      seat: command.seat,
      roles: invitation.roles,
      now: command.now,
      invitationId: invitation.invitationId,
    },
    policy,
  )
  // Teams that went away since the invitation are skipped; a full team refuses the acceptance.
  const teams = policy.teams.enabled
    ? invitation.teamIds
        .filter((teamId) => state.teams.has(teamId))
        .flatMap((teamId, index) =>
          teamAddition(
            state,
            {
              teamId,
              userId: command.userId,
              teamMemberId: command.teamMemberIds[index] ?? `${command.memberId}-${index}`,
              now: command.now,
            },
            policy,
          ),
        )
    : []
  return [
    {
      type: 'organization.invitation-accepted',
      data: {
        organizationId,
        invitationId: invitation.invitationId,
        inviteeSubject: invitation.inviteeSubject,
        userId: command.userId,
        memberId: command.memberId,
      },
    },
    member,
    ...teams,
  ]
}

export const reject = (
  command: Command<'reject-invitation'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const invitation = state.invitations.get(command.invitationId)
  if (invitation?.status !== 'pending') return fail('INVITATION_NOT_FOUND', 400, 'Invitation not found!')
  assertRecipient(invitation, command, policy)
  return [
    {
      type: 'organization.invitation-rejected',
      data: {
        organizationId: state.organizationId,
        invitationId: invitation.invitationId,
        inviteeSubject: invitation.inviteeSubject,
        userId: command.userId,
      },
    },
  ]
}

export const cancel = (
  command: Command<'cancel-invitation'>,
  state: ActiveOrganization,
): OrganizationEvent[] => {
  const invitation = state.invitations.get(command.invitationId) ?? fail('INVITATION_NOT_FOUND')
  actingMember(
    state,
    command.actorUserId,
    { invitation: ['cancel'] },
    () => fail('MEMBER_NOT_FOUND'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION'),
  )
  // Accepted, rejected or canceled already: there is nothing left to cancel (an accepted
  // invitation's member stays; cancelling cannot undo the acceptance it lost to).
  if (invitation.status !== 'pending') fail('INVITATION_NOT_FOUND')
  return [
    {
      type: 'organization.invitation-canceled',
      data: {
        organizationId: state.organizationId,
        invitationId: invitation.invitationId,
        inviteeSubject: invitation.inviteeSubject,
      },
    },
  ]
}
