/// The organization aggregate: the organization with its members, teams, invitations and custom
/// roles, in one stream (`organization-<id>`). Every rule that spans them holds because it is
/// decided against one folded state and appended with optimistic concurrency: the last owner, the
/// membership limit (two accepts for the last seat: one wins), accepting an invitation together
/// with the member it creates, accept against cancel.

import { AUTH_ERRORS } from '../errors.js'
import type { Decider } from '../shared/decider.js'
import { DomainError } from '../shared/errors.js'
import type { OrganizationCommand, OrganizationPolicy } from './organization.commands.js'
import type { MemberRemovalReason, OrganizationEvent, PermissionStatements } from './organization.events.js'
import { hasPermission, isBuiltInRole, rolesOf, type Statements, unknownResources } from './permissions.js'

export type { OrganizationCommand, OrganizationPolicy } from './organization.commands.js'
export type { OrganizationEvent } from './organization.events.js'

export const organizationStream = (organizationId: string): string => `organization-${organizationId}`

/** The unique-claim scope of organization slugs (one slug, one organization). */
export const SLUG_SCOPE = 'organization.slug'

/**
 * The unique-claim scope of membership seats: each membership of a user (while an
 * `organizationLimit` is configured) claims one of the user's seats, `<userId>:<n>`, in the append
 * that adds it, and releases it in the append that ends it. A create may only take a seat below the
 * limit, so concurrent creates by one user cannot pass the limit: two that pick the same seat
 * conflict in the store, and the loser looks for another.
 */
export const MEMBERSHIP_SEAT_SCOPE = 'organization.membership-seat'
export const membershipSeatValue = (userId: string, seat: number): string => `${userId}:${seat}`

/// State

export type Member = { memberId: string; userId: string; role: string; seat: number | null }
export type Invitation = {
  invitationId: string
  email: string
  inviteeSubject: string
  role: string
  teamIds: string[]
  status: 'pending' | 'accepted' | 'rejected' | 'canceled'
  inviterId: string
  expiresAt: string
}
export type Team = { teamId: string; name: string; userIds: ReadonlySet<string> }
export type CustomRole = { roleId: string; role: string; permission: PermissionStatements }

export type Organization = {
  status: 'none' | 'active' | 'deleted'
  organizationId: string
  name: string
  slug: string
  logo: string | null
  metadata: Record<string, unknown> | null
  members: ReadonlyMap<string, Member>
  invitations: ReadonlyMap<string, Invitation>
  teams: ReadonlyMap<string, Team>
  roles: ReadonlyMap<string, CustomRole>
}

export const initialState = (): Organization => ({
  status: 'none',
  organizationId: '',
  name: '',
  slug: '',
  logo: null,
  metadata: null,
  members: new Map(),
  invitations: new Map(),
  teams: new Map(),
  roles: new Map(),
})

const withEntry = <V>(map: ReadonlyMap<string, V>, key: string, value: V) => new Map(map).set(key, value)
const without = <V>(map: ReadonlyMap<string, V>, key: string) => {
  const next = new Map(map)
  next.delete(key)
  return next
}
const updated = <V>(map: ReadonlyMap<string, V>, key: string, change: (value: V) => V) => {
  const value = map.get(key)
  return value === undefined ? map : withEntry(map, key, change(value))
}

/// Evolve: no rules, never throws

export const evolve = (state: Organization, event: OrganizationEvent): Organization => {
  switch (event.type) {
    case 'organization.created': {
      const { organizationId, name, slug, logo, metadata } = event.data
      return { ...initialState(), status: 'active', organizationId, name, slug, logo, metadata }
    }
    case 'organization.updated': {
      const { name, slug, logo, metadata } = event.data
      return { ...state, name, slug, logo, metadata }
    }
    case 'organization.deleted':
      return { ...state, status: 'deleted' }
    case 'organization.member-added': {
      const { memberId, userId, role, seat } = event.data
      return {
        ...state,
        members: withEntry(state.members, memberId, { memberId, userId, role, seat: seat ?? null }),
      }
    }
    case 'organization.member-removed': {
      const { memberId, userId } = event.data
      const teams = new Map(
        [...state.teams].map(([id, team]) => [id, { ...team, userIds: setWithout(team.userIds, userId) }]),
      )
      return { ...state, members: without(state.members, memberId), teams }
    }
    case 'organization.member-role-updated':
      return {
        ...state,
        members: updated(state.members, event.data.memberId, (member) => ({
          ...member,
          role: event.data.role,
        })),
      }
    case 'organization.invitation-created': {
      const { invitationId, email, inviteeSubject, role, teamId, inviterId, expiresAt } = event.data
      const invitation: Invitation = {
        invitationId,
        email,
        inviteeSubject,
        role,
        teamIds: teamId ? teamId.split(',') : [],
        status: 'pending',
        inviterId,
        expiresAt,
      }
      return { ...state, invitations: withEntry(state.invitations, invitationId, invitation) }
    }
    case 'organization.invitation-renewed':
      return {
        ...state,
        invitations: updated(state.invitations, event.data.invitationId, (invitation) => ({
          ...invitation,
          expiresAt: event.data.expiresAt,
        })),
      }
    case 'organization.invitation-accepted':
      return withInvitationStatus(state, event.data.invitationId, 'accepted')
    case 'organization.invitation-rejected':
      return withInvitationStatus(state, event.data.invitationId, 'rejected')
    case 'organization.invitation-canceled':
      return withInvitationStatus(state, event.data.invitationId, 'canceled')
    case 'organization.team-created': {
      const { teamId, name } = event.data
      return { ...state, teams: withEntry(state.teams, teamId, { teamId, name, userIds: new Set() }) }
    }
    case 'organization.team-updated':
      return {
        ...state,
        teams: updated(state.teams, event.data.teamId, (team) => ({ ...team, name: event.data.name })),
      }
    case 'organization.team-removed':
      return { ...state, teams: without(state.teams, event.data.teamId) }
    case 'organization.team-member-added':
      return {
        ...state,
        teams: updated(state.teams, event.data.teamId, (team) => ({
          ...team,
          userIds: new Set([...team.userIds, event.data.userId]),
        })),
      }
    case 'organization.team-member-removed':
      return {
        ...state,
        teams: updated(state.teams, event.data.teamId, (team) => ({
          ...team,
          userIds: setWithout(team.userIds, event.data.userId),
        })),
      }
    case 'organization.role-created':
    case 'organization.role-updated': {
      const { roleId, role, permission } = event.data
      return { ...state, roles: withEntry(state.roles, roleId, { roleId, role, permission }) }
    }
    case 'organization.role-deleted':
      return { ...state, roles: without(state.roles, event.data.roleId) }
    default:
      return state
  }
}

const setWithout = (set: ReadonlySet<string>, value: string): ReadonlySet<string> => {
  if (!set.has(value)) return set
  const next = new Set(set)
  next.delete(value)
  return next
}

const withInvitationStatus = (
  state: Organization,
  invitationId: string,
  status: Invitation['status'],
): Organization => ({
  ...state,
  invitations: updated(state.invitations, invitationId, (invitation) => ({ ...invitation, status })),
})

/// Queries over the state (also used by the use cases' answers)

export const memberOfUser = (state: Organization, userId: string): Member | undefined =>
  [...state.members.values()].find((member) => member.userId === userId)

const isCreator = (role: string, policy: OrganizationPolicy) => rolesOf(role).includes(policy.creatorRole)

const ownerCount = (state: Organization, policy: OrganizationPolicy) =>
  [...state.members.values()].filter((member) => isCreator(member.role, policy)).length

/** The organization's custom roles as permission data, by name. */
export const customRolesOf = (state: Organization): Record<string, Statements> =>
  Object.fromEntries([...state.roles.values()].map(({ role, permission }) => [role, permission]))

export const isPendingAt = (invitation: Invitation, now: string): boolean =>
  invitation.status === 'pending' && Date.parse(invitation.expiresAt) > Date.parse(now)

/// Decide: every rule

const fail = (code: Parameters<typeof AUTH_ERRORS.error>[0], status?: number, message?: string): never => {
  if (status === undefined && message === undefined) throw AUTH_ERRORS.error(code)
  throw new DomainError(code, status ?? AUTH_ERRORS[code].status, message ?? AUTH_ERRORS[code].message)
}

type Command<T extends OrganizationCommand['type']> = Extract<OrganizationCommand, { type: T }>

export const decide = (command: OrganizationCommand, state: Organization): OrganizationEvent[] => {
  if (command.type === 'create-organization') return create(command, state)
  if (command.type === 'remove-deleted-user') return removeDeletedUser(command, state)
  if (state.status !== 'active') {
    // Whoever asks about an organization that is not there is not one of its members.
    if (command.type === 'update-organization' || command.type === 'delete-organization')
      return fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
    if (command.type === 'accept-invitation' || command.type === 'cancel-invitation')
      return fail('INVITATION_NOT_FOUND')
    if (command.type === 'reject-invitation')
      return fail('INVITATION_NOT_FOUND', 400, 'Invitation not found!')
    if (command.type === 'leave-organization' || command.type === 'remove-member')
      return fail('MEMBER_NOT_FOUND')
    return fail('ORGANIZATION_NOT_FOUND')
  }
  switch (command.type) {
    case 'update-organization':
      return update(command, state)
    case 'delete-organization':
      return remove(command, state)
    case 'add-member':
      return addMember(command, state)
    case 'remove-member':
      return removeMember(command, state)
    case 'leave-organization':
      return leave(command, state)
    case 'update-member-role':
      return updateMemberRole(command, state)
    case 'invite-member':
      return invite(command, state)
    case 'accept-invitation':
      return accept(command, state)
    case 'reject-invitation':
      return reject(command, state)
    case 'cancel-invitation':
      return cancel(command, state)
    case 'create-team':
      return createTeam(command, state)
    case 'update-team':
      return updateTeam(command, state)
    case 'remove-team':
      return removeTeam(command, state)
    case 'add-team-member':
      return addTeamMember(command, state)
    case 'remove-team-member':
      return removeTeamMember(command, state)
    case 'create-role':
      return createRole(command, state)
    case 'update-role':
      return updateRole(command, state)
    case 'delete-role':
      return deleteRole(command, state)
  }
}

/**
 * The acting member, checked for `permissions`; the server (actor null) may do anything. `notMember`
 * and `denied` are the refusals of the route that asks, as better-auth words them.
 */
const actingMember = (
  state: Organization,
  actorUserId: string | null,
  permissions: Statements,
  notMember: () => never,
  denied: () => never,
): Member | null => {
  if (actorUserId === null) return null
  const member = memberOfUser(state, actorUserId) ?? notMember()
  if (!hasPermission(member.role, permissions, customRolesOf(state))) denied()
  return member
}

const unknownRoles = (state: Organization, roles: readonly string[]) => {
  const custom = new Set([...state.roles.values()].map((role) => role.role))
  return roles.filter((role) => !isBuiltInRole(role) && !custom.has(role))
}

const assertKnownRoles = (state: Organization, roles: readonly string[]) => {
  const unknown = unknownRoles(state, roles)
  if (unknown.length > 0) fail('ROLE_NOT_FOUND', 400, `ROLE_NOT_FOUND: ${unknown.join(', ')}`)
}

const create = (command: Command<'create-organization'>, state: Organization): OrganizationEvent[] => {
  if (state.status !== 'none') fail('ORGANIZATION_ALREADY_EXISTS')
  const { organizationId, name, slug, logo, metadata, userId, memberId, seat, now, policy } = command
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
        role: policy.creatorRole,
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

const update = (command: Command<'update-organization'>, state: Organization): OrganizationEvent[] => {
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

const remove = (command: Command<'delete-organization'>, state: Organization): OrganizationEvent[] => {
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

/** A seat in an event's data: none recorded when no seat was taken. */
const seatOf = (seat: number | null): { seat?: number } => (seat === null ? {} : { seat })

const memberAddition = (
  state: Organization,
  input: {
    memberId: string
    userId: string
    seat: number | null
    role: string
    now: string
    invitationId: string | null
  },
  policy: OrganizationPolicy,
): OrganizationEvent => {
  if (memberOfUser(state, input.userId)) fail('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION')
  if (state.members.size >= policy.membershipLimit) fail('ORGANIZATION_MEMBERSHIP_LIMIT_REACHED')
  const { memberId, userId, seat, role, now, invitationId } = input
  return {
    type: 'organization.member-added',
    data: {
      organizationId: state.organizationId,
      memberId,
      userId,
      role,
      createdAt: now,
      invitationId,
      ...seatOf(seat),
    },
  }
}

const teamAddition = (
  state: Organization,
  input: { teamId: string; userId: string; teamMemberId: string; now: string },
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const team = state.teams.get(input.teamId) ?? fail('TEAM_NOT_FOUND')
  if (team.userIds.has(input.userId)) return []
  const limit = policy.teams.maximumMembersPerTeam
  if (limit !== null && team.userIds.size >= limit) fail('TEAM_MEMBER_LIMIT_REACHED')
  const { teamId, userId, teamMemberId, now } = input
  return [
    {
      type: 'organization.team-member-added',
      data: { organizationId: state.organizationId, teamId, teamMemberId, userId, createdAt: now },
    },
  ]
}

const addMember = (command: Command<'add-member'>, state: Organization): OrganizationEvent[] => {
  const { policy } = command
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
  const added = memberAddition(
    state,
    { ...command, role: command.roles.join(','), invitationId: null },
    policy,
  )
  const teams =
    command.teamId !== null && policy.teams.enabled
      ? teamAddition(state, { ...command, teamId: command.teamId }, policy)
      : []
  return [added, ...teams]
}

const removeMember = (command: Command<'remove-member'>, state: Organization): OrganizationEvent[] => {
  const { policy } = command
  const actor = command.actorUserId === null ? null : memberOfUser(state, command.actorUserId)
  if (command.actorUserId !== null && !actor) fail('MEMBER_NOT_FOUND')
  const target =
    'memberId' in command.target
      ? state.members.get(command.target.memberId)
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

const memberRemoval = (
  state: Organization,
  { memberId, userId, seat }: Member,
  reason: MemberRemovalReason,
): OrganizationEvent => ({
  type: 'organization.member-removed',
  data: { organizationId: state.organizationId, memberId, userId, reason, ...seatOf(seat) },
})

const leave = (command: Command<'leave-organization'>, state: Organization): OrganizationEvent[] => {
  const member = memberOfUser(state, command.userId) ?? fail('MEMBER_NOT_FOUND')
  if (isCreator(member.role, command.policy) && ownerCount(state, command.policy) <= 1)
    fail('YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER')
  return [memberRemoval(state, member, 'left')]
}

// The account is gone already (account deletion refuses while the user is an only owner).
const removeDeletedUser = (
  command: Command<'remove-deleted-user'>,
  state: Organization,
): OrganizationEvent[] => {
  if (state.status !== 'active') return []
  const member = memberOfUser(state, command.userId)
  return member ? [memberRemoval(state, member, 'account-deleted')] : []
}

const updateMemberRole = (
  command: Command<'update-member-role'>,
  state: Organization,
): OrganizationEvent[] => {
  const { policy } = command
  const actor = command.actorUserId === null ? null : memberOfUser(state, command.actorUserId)
  if (command.actorUserId !== null && !actor) fail('MEMBER_NOT_FOUND')
  const target = state.members.get(command.memberId) ?? fail('MEMBER_NOT_FOUND')
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
  const role = command.roles.join(',')
  if (role === target.role) return []
  return [
    {
      type: 'organization.member-role-updated',
      data: {
        organizationId: state.organizationId,
        memberId: target.memberId,
        userId: target.userId,
        role,
        previousRole: target.role,
      },
    },
  ]
}

const invite = (command: Command<'invite-member'>, state: Organization): OrganizationEvent[] => {
  const { policy, now } = command
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
        role: command.roles.join(','),
        teamId: command.teamIds.length > 0 ? command.teamIds.join(',') : null,
        // The server invites in the name of nobody in particular: better-auth's inviterId is required.
        inviterId: command.actorUserId ?? 'server',
        expiresAt,
        createdAt: now,
      },
    },
  ]
}

const recipientOf = (invitation: Invitation, email: string) =>
  invitation.email.toLowerCase() === email.toLowerCase()

const accept = (command: Command<'accept-invitation'>, state: Organization): OrganizationEvent[] => {
  const invitation = state.invitations.get(command.invitationId)
  if (!invitation || !isPendingAt(invitation, command.now)) return fail('INVITATION_NOT_FOUND')
  if (!recipientOf(invitation, command.email)) fail('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION')
  const { organizationId } = state
  const member = memberAddition(
    state,
    {
      memberId: command.memberId,
      userId: command.userId,
      seat: command.seat,
      role: invitation.role,
      now: command.now,
      invitationId: invitation.invitationId,
    },
    command.policy,
  )
  // Teams that went away since the invitation are skipped; a full team refuses the acceptance.
  const teams = command.policy.teams.enabled
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
            command.policy,
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

const reject = (command: Command<'reject-invitation'>, state: Organization): OrganizationEvent[] => {
  const invitation = state.invitations.get(command.invitationId)
  if (invitation?.status !== 'pending') return fail('INVITATION_NOT_FOUND', 400, 'Invitation not found!')
  if (!recipientOf(invitation, command.email)) fail('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION')
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

const cancel = (command: Command<'cancel-invitation'>, state: Organization): OrganizationEvent[] => {
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

const createTeam = (command: Command<'create-team'>, state: Organization): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { team: ['create'] },
    () => fail('YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION'),
  )
  const maximum = command.policy.teams.maximumTeams
  if (maximum !== null && state.teams.size >= maximum) fail('YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS')
  const { teamId, name, now } = command
  return [
    {
      type: 'organization.team-created',
      data: { organizationId: state.organizationId, teamId, name, createdAt: now, updatedAt: now },
    },
  ]
}

const updateTeam = (command: Command<'update-team'>, state: Organization): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { team: ['update'] },
    () => fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM'),
  )
  const team = state.teams.get(command.teamId) ?? fail('TEAM_NOT_FOUND')
  return [
    {
      type: 'organization.team-updated',
      data: {
        organizationId: state.organizationId,
        teamId: team.teamId,
        name: command.name ?? team.name,
        updatedAt: command.now,
      },
    },
  ]
}

const removeTeam = (command: Command<'remove-team'>, state: Organization): OrganizationEvent[] => {
  if (command.actorUserId !== null && command.activeTeamId === command.teamId)
    fail('YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM')
  actingMember(
    state,
    command.actorUserId,
    { team: ['delete'] },
    () => fail('YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION'),
  )
  const team = state.teams.get(command.teamId) ?? fail('TEAM_NOT_FOUND')
  if (!command.policy.teams.allowRemovingAllTeams && state.teams.size <= 1) fail('UNABLE_TO_REMOVE_LAST_TEAM')
  const { organizationId } = state
  // Each member leaves the team first, so their sessions forget it as their active team.
  return [
    ...[...team.userIds].map(
      (userId): OrganizationEvent => ({
        type: 'organization.team-member-removed',
        data: { organizationId, teamId: team.teamId, userId },
      }),
    ),
    { type: 'organization.team-removed', data: { organizationId, teamId: team.teamId } },
  ]
}

const addTeamMember = (command: Command<'add-team-member'>, state: Organization): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { member: ['update'] },
    () => fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER'),
  )
  if (!memberOfUser(state, command.userId)) fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
  return teamAddition(state, command, command.policy)
}

const removeTeamMember = (
  command: Command<'remove-team-member'>,
  state: Organization,
): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { member: ['delete'] },
    () => fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER'),
  )
  if (!memberOfUser(state, command.userId)) fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
  const team = state.teams.get(command.teamId) ?? fail('TEAM_NOT_FOUND')
  if (!team.userIds.has(command.userId)) fail('USER_IS_NOT_A_MEMBER_OF_THE_TEAM')
  return [
    {
      type: 'organization.team-member-removed',
      data: { organizationId: state.organizationId, teamId: team.teamId, userId: command.userId },
    },
  ]
}

/// Custom roles (dynamic access control)

const roleByIdOrName = (state: Organization, idOrName: string): CustomRole | undefined =>
  state.roles.get(idOrName) ?? [...state.roles.values()].find((role) => role.role === idOrName)

/** A role may only grant what its author holds (no escalation through a custom role). */
const assertGrantable = (
  state: Organization,
  actor: Member | null,
  permission: PermissionStatements,
  denied: () => never,
) => {
  if (unknownResources(permission).length > 0) fail('INVALID_RESOURCE')
  if (!actor) return
  for (const [resource, actions] of Object.entries(permission))
    for (const action of actions)
      if (!hasPermission(actor.role, { [resource]: [action] }, customRolesOf(state))) denied()
}

const assertFreeRoleName = (state: Organization, name: string, except: string | null) => {
  if (isBuiltInRole(name)) fail('ROLE_NAME_IS_ALREADY_TAKEN')
  const taken = [...state.roles.values()].some((role) => role.role === name && role.roleId !== except)
  if (taken) fail('ROLE_NAME_IS_ALREADY_TAKEN')
}

const createRole = (command: Command<'create-role'>, state: Organization): OrganizationEvent[] => {
  const dynamic = command.policy.dynamicRoles ?? fail('NOT_FOUND')
  const denied = () => fail('YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE')
  const actor = actingMember(
    state,
    command.actorUserId,
    { ac: ['create'] },
    () => fail('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION'),
    denied,
  )
  if (state.roles.size >= dynamic.maximumRolesPerOrganization) fail('TOO_MANY_ROLES')
  assertGrantable(state, actor, command.permission, denied)
  assertFreeRoleName(state, command.role, null)
  const { roleId, role, permission, now } = command
  return [
    {
      type: 'organization.role-created',
      data: { organizationId: state.organizationId, roleId, role, permission, createdAt: now },
    },
  ]
}

const updateRole = (command: Command<'update-role'>, state: Organization): OrganizationEvent[] => {
  if (!command.policy.dynamicRoles) fail('NOT_FOUND')
  const denied = () => fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE')
  const actor = actingMember(
    state,
    command.actorUserId,
    { ac: ['update'] },
    () => fail('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION'),
    denied,
  )
  const existing = roleByIdOrName(state, command.roleIdOrName) ?? fail('ROLE_NOT_FOUND')
  const permission = command.permission ?? existing.permission
  if (command.permission) assertGrantable(state, actor, command.permission, denied)
  const role = command.newName ?? existing.role
  if (command.newName !== undefined) assertFreeRoleName(state, command.newName, existing.roleId)
  return [
    {
      type: 'organization.role-updated',
      data: {
        organizationId: state.organizationId,
        roleId: existing.roleId,
        role,
        permission,
        updatedAt: command.now,
      },
    },
  ]
}

const deleteRole = (command: Command<'delete-role'>, state: Organization): OrganizationEvent[] => {
  if (!command.policy.dynamicRoles) fail('NOT_FOUND')
  actingMember(
    state,
    command.actorUserId,
    { ac: ['delete'] },
    () => fail('YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE'),
  )
  if (isBuiltInRole(command.roleIdOrName)) fail('CANNOT_DELETE_A_PRE_DEFINED_ROLE')
  const existing = roleByIdOrName(state, command.roleIdOrName) ?? fail('ROLE_NOT_FOUND')
  const assigned = [...state.members.values()].some((member) => rolesOf(member.role).includes(existing.role))
  if (assigned) fail('ROLE_IS_ASSIGNED_TO_MEMBERS')
  return [
    {
      type: 'organization.role-deleted',
      data: { organizationId: state.organizationId, roleId: existing.roleId, role: existing.role },
    },
  ]
}

export const organizationDecider: Decider<OrganizationCommand, OrganizationEvent, Organization> = {
  decide,
  evolve,
  initialState,
}

/**
 * The claims the events take and release: slugs (one slug, one organization) and membership seats
 * (see `MEMBERSHIP_SEAT_SCOPE`).
 */
export const organizationClaims = (events: readonly OrganizationEvent[]) =>
  events.flatMap((event) => {
    switch (event.type) {
      case 'organization.member-added':
      case 'organization.member-removed': {
        const { seat, userId, organizationId } = event.data
        if (seat === undefined) return []
        const op = event.type === 'organization.member-added' ? ('claim' as const) : ('release' as const)
        return [
          {
            op,
            scope: MEMBERSHIP_SEAT_SCOPE,
            value: membershipSeatValue(userId, seat),
            owner: organizationId,
          },
        ]
      }
      case 'organization.created':
        return [
          {
            op: 'claim' as const,
            scope: SLUG_SCOPE,
            value: event.data.slug,
            owner: event.data.organizationId,
          },
        ]
      case 'organization.updated':
        return event.data.slug === event.data.previousSlug
          ? []
          : [
              {
                op: 'release' as const,
                scope: SLUG_SCOPE,
                value: event.data.previousSlug,
                owner: event.data.organizationId,
              },
              {
                op: 'claim' as const,
                scope: SLUG_SCOPE,
                value: event.data.slug,
                owner: event.data.organizationId,
              },
            ]
      case 'organization.deleted':
        return [
          {
            op: 'release' as const,
            scope: SLUG_SCOPE,
            value: event.data.slug,
            owner: event.data.organizationId,
          },
        ]
      default:
        return []
    }
  })
