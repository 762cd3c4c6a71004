/// The organization itself: create (with its creator as owner, and the default team), update, delete,
/// and the end of a deleted account's membership.

import type { OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent } from './organization.events.js'
import { memberRemoval } from './organization.members.js'
import { actingMember, type Command, fail, seatOf } from './organization.rules.js'
import { type ActiveOrganization, memberOfUser, type Organization } from './organization.state.js'

export const create = (
  command: Command<'create-organization'>,
  state: Organization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  if (!command.byServer && !policy.allowUserToCreateOrganization)
    fail('YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION')
  if (state.status !== 'none') fail('ORGANIZATION_ALREADY_EXISTS')
  const { organizationId, name, slug, logo, metadata, userId, memberId, seat, now } = command
  const events: OrganizationEvent[] = [
    {
      type: 'organization.created',
      data: { organizationId, name, slug, logo, metadata, createdAt: now, createdBy: userId },
    },
    {
      type: 'organization.member-added',
      data: {
        organizationId,
        memberId,
        userId,
        roles: [policy.creatorRole],
        createdAt: now,
        invitationId: null,
        ...seatOf(seat),
      },
    },
  ]
  if (policy.teams.enabled && policy.teams.defaultTeam) {
    const { teamId, teamMemberId } = command.defaultTeam
    events.push(
      { type: 'organization.team-created', data: { organizationId, teamId, name, createdAt: now } },
      {
        type: 'organization.team-member-added',
        data: { organizationId, teamId, teamMemberId, userId, createdAt: now },
      },
    )
  }
  return events
}

export const update = (
  command: Command<'update-organization'>,
  state: ActiveOrganization,
): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { organization: ['update'] },
    () => fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION'),
  )
  const next = {
    name: command.name ?? state.name,
    slug: command.slug ?? state.slug,
    logo: command.logo === undefined ? state.logo : command.logo,
    metadata: command.metadata ?? state.metadata,
  }
  return [
    {
      type: 'organization.updated',
      data: { organizationId: state.organizationId, ...next, previousSlug: state.slug },
    },
  ]
}

export const remove = (
  command: Command<'delete-organization'>,
  state: ActiveOrganization,
): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { organization: ['delete'] },
    () => fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION'),
  )
  const { organizationId } = state
  // Every membership ends with it, each as its own event: each member's sessions forget it.
  return [
    ...[...state.members.values()].map((member) => memberRemoval(state, member, 'organization-deleted')),
    { type: 'organization.deleted', data: { organizationId, slug: state.slug } },
  ]
}

// The account is gone already (account deletion refuses while the user is an only owner).
export const removeDeletedUser = (
  command: Command<'remove-deleted-user'>,
  state: Organization,
): OrganizationEvent[] => {
  if (state.status !== 'active') return []
  const member = memberOfUser(state, command.userId)
  return member ? [memberRemoval(state, member, 'account-deleted')] : []
}
