/// Members: add (server only), remove, leave, change a role. The last owner stays.

import type { OrganizationPolicy } from './organization.commands.js'
import type { MemberRemovalReason, OrganizationEvent } from './organization.events.js'
import { actingMember, assertKnownRoles, type Command, fail, seatOf } from './organization.rules.js'
import {
  type ActiveOrganization,
  customRolesOf,
  isCreator,
  type Member,
  memberOfUser,
  ownerCount,
} from './organization.state.js'
import { teamAddition } from './organization.teams.js'
import { hasPermission } from './permissions.js'

export const memberAddition = (
  state: ActiveOrganization,
  input: {
    memberId: string
    userId: string
    seat: number | null
    roles: readonly string[]
    now: string
    invitationId: string | null
  },
  policy: OrganizationPolicy,
): OrganizationEvent => {
  if (memberOfUser(state, input.userId)) fail('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION')
  if (state.members.size >= policy.membershipLimit) fail('ORGANIZATION_MEMBERSHIP_LIMIT_REACHED')
  const { memberId, userId, seat, roles, now, invitationId } = input
  return {
    type: 'organization.member-added',
    data: {
      organizationId: state.organizationId,
      memberId,
      userId,
      roles: [...roles],
      createdAt: now,
      invitationId,
      ...seatOf(seat),
    },
  }
}

export const addMember = (
  command: Command<'add-member'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { member: ['create'] },
    () => fail('MEMBER_NOT_FOUND'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER'),
  )
  assertKnownRoles(state, command.roles)
  // better-auth's order: an existing member, then the team, then the membership limit.
  if (memberOfUser(state, command.userId)) fail('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION')
  if (command.teamId !== null && !state.teams.has(command.teamId)) fail('TEAM_NOT_FOUND')
  const added = memberAddition(state, { ...command, invitationId: null }, policy)
  const teams =
    command.teamId !== null && policy.teams.enabled
      ? teamAddition(state, { ...command, teamId: command.teamId }, policy)
      : []
  return [added, ...teams]
}

export const removeMember = (
  command: Command<'remove-member'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const actor = command.actorUserId === null ? null : memberOfUser(state, command.actorUserId)
  if (command.actorUserId !== null && !actor) fail('MEMBER_NOT_FOUND')
  const target =
    'memberId' in command.target
      ? state.members.get(command.target.memberId)
      : command.target.userId === null
        ? undefined
        : memberOfUser(state, command.target.userId)
  if (!target) return fail('MEMBER_NOT_FOUND')
  if (isCreator(target.role, policy)) {
    // better-auth answers both an owner removed by a non-owner and the last owner with this message.
    if (actor && !isCreator(actor.role, policy)) fail('YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER')
    if (ownerCount(state, policy) <= 1) fail('YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER')
  }
  if (actor && !hasPermission(actor.role, { member: ['delete'] }, customRolesOf(state)))
    fail('YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER')
  return [memberRemoval(state, target, 'removed')]
}

export const memberRemoval = (
  state: ActiveOrganization,
  { memberId, userId, seat }: Member,
  reason: MemberRemovalReason,
): OrganizationEvent => ({
  type: 'organization.member-removed',
  data: { organizationId: state.organizationId, memberId, userId, reason, ...seatOf(seat) },
})

export const leave = (
  command: Command<'leave-organization'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const member = memberOfUser(state, command.userId) ?? fail('MEMBER_NOT_FOUND')
  if (isCreator(member.role, policy) && ownerCount(state, policy) <= 1)
    fail('YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER')
  return [memberRemoval(state, member, 'left')]
}

export const updateMemberRole = (
  command: Command<'update-member-role'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const actor = command.actorUserId === null ? null : memberOfUser(state, command.actorUserId)
  if (command.actorUserId !== null && !actor) fail('MEMBER_NOT_FOUND')
  const target =
    state.members.get(command.memberId) ??
    fail(command.memberElsewhere ? 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER' : 'MEMBER_NOT_FOUND')
  const settingCreator = command.roles.includes(policy.creatorRole)
  if (actor) {
    const actorIsCreator = isCreator(actor.role, policy)
    // Only an owner touches an owner, or makes one.
    if ((isCreator(target.role, policy) || settingCreator) && !actorIsCreator)
      fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER')
    if (!hasPermission(actor.role, { member: ['update'] }, customRolesOf(state)))
      fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER')
  }
  if (isCreator(target.role, policy) && !settingCreator && ownerCount(state, policy) <= 1)
    fail('YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER')
  assertKnownRoles(state, command.roles)
  if (command.roles.join(',') === target.role) return []
  return [
    {
      type: 'organization.member-role-updated',
      data: {
        organizationId: state.organizationId,
        memberId: target.memberId,
        userId: target.userId,
        roles: [...command.roles],
        previousRoles: [...target.roles],
      },
    },
  ]
}
