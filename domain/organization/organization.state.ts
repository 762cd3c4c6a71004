/// The organization aggregate's state, folded from its one stream (`organization-<id>`): the
/// organization with its members, invitations, teams and custom roles. `evolve` holds no rule.

import { PersistentMap } from '../shared/persistent-map.js'
import type { OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent, PermissionStatements } from './organization.events.js'
import { rolesOf, type Statements } from './permissions.js'

/// State

export type Member = {
  memberId: string
  userId: string
  roles: readonly string[]
  /** `roles` as better-auth's one text (comma-separated), which the permission rules read. */
  role: string
  seat: number | null
  createdAt: string
}
export type Invitation = {
  invitationId: string
  email: string
  inviteeSubject: string
  roles: readonly string[]
  role: string
  teamIds: readonly string[]
  status: 'pending' | 'accepted' | 'rejected' | 'canceled'
  inviterId: string
  expiresAt: string
  createdAt: string
}
export type Team = { teamId: string; name: string; userIds: ReadonlySet<string> }
export type CustomRole = { roleId: string; role: string; permission: PermissionStatements }

/** An organization that exists: the only state a rule about its members, invitations or teams sees. */
export type ActiveOrganization = {
  status: 'active'
  organizationId: string
  name: string
  slug: string
  logo: string | null
  metadata: Record<string, unknown> | null
  // Persistent maps: an event's new state shares all but a few slots with the one before (an
  // organization of 10,000 members is not copied for the next member), and neither ever changes.
  members: PersistentMap<Member>
  /** The member id of each member's user: what `memberOfUser` asks, without a scan of `members`. */
  memberIdsByUser: PersistentMap<string>
  invitations: PersistentMap<Invitation>
  teams: PersistentMap<Team>
  roles: PersistentMap<CustomRole>
}

/**
 * Never made, existing, or deleted: a deleted organization keeps only what its last event named,
 * so no rule can read members or invitations of an organization that is not there.
 */
export type Organization =
  | { status: 'none' }
  | ActiveOrganization
  | { status: 'deleted'; organizationId: string; slug: string }

export const initialState = (): Organization => ({ status: 'none' })

/** An organization with nobody and nothing in it, as `organization.created` starts one. */
export const emptyOrganization = (
  fields: Pick<ActiveOrganization, 'organizationId' | 'name' | 'slug' | 'logo' | 'metadata'>,
): ActiveOrganization => ({
  status: 'active',
  ...fields,
  members: PersistentMap.empty(),
  memberIdsByUser: PersistentMap.empty(),
  invitations: PersistentMap.empty(),
  teams: PersistentMap.empty(),
  roles: PersistentMap.empty(),
})

const withEntry = <V>(map: PersistentMap<V>, key: string, value: V) => map.set(key, value)
const without = <V>(map: PersistentMap<V>, key: string) => map.delete(key)
const updated = <V>(map: PersistentMap<V>, key: string, change: (value: V) => V) => map.update(key, change)

/// Evolve: no rules, never throws

export const evolve = (state: Organization, event: OrganizationEvent): Organization => {
  if (event.type === 'organization.created') {
    const { organizationId, name, slug, logo, metadata } = event.data
    return emptyOrganization({ organizationId, name, slug, logo, metadata })
  }
  // Nothing happens to an organization that is not there (decide never records it).
  if (state.status !== 'active') return state
  if (event.type === 'organization.deleted')
    return { status: 'deleted', organizationId: state.organizationId, slug: state.slug }
  return evolveActive(state, event)
}

const evolveActive = (state: ActiveOrganization, event: OrganizationEvent): ActiveOrganization => {
  switch (event.type) {
    case 'organization.updated': {
      const { name, slug, logo, metadata } = event.data
      return { ...state, name, slug, logo, metadata }
    }
    case 'organization.member-added': {
      const { memberId, userId, roles, seat, createdAt } = event.data
      // The permission rules read better-auth's one text of roles (permissions.ts `rolesOf`).
      const member = { memberId, userId, roles, role: roles.join(','), seat: seat ?? null, createdAt }
      return {
        ...state,
        members: withEntry(state.members, memberId, member),
        // The first membership of a user stays the one found (the decider never adds a second).
        memberIdsByUser: state.memberIdsByUser.has(userId)
          ? state.memberIdsByUser
          : withEntry(state.memberIdsByUser, userId, memberId),
      }
    }
    case 'organization.member-removed': {
      const { memberId, userId } = event.data
      const teams = PersistentMap.of(
        [...state.teams].map(([id, team]) => [id, { ...team, userIds: setWithout(team.userIds, userId) }]),
      )
      const byUser = state.memberIdsByUser
      return {
        ...state,
        members: without(state.members, memberId),
        memberIdsByUser: byUser.get(userId) === memberId ? without(byUser, userId) : byUser,
        teams,
      }
    }
    case 'organization.member-role-updated':
      return {
        ...state,
        members: updated(state.members, event.data.memberId, (member) => ({
          ...member,
          roles: event.data.roles,
          role: event.data.roles.join(','),
        })),
      }
    case 'organization.invitation-created': {
      const { invitationId, email, inviteeSubject, roles, teamIds, inviterId, expiresAt, createdAt } =
        event.data
      const invitation: Invitation = {
        invitationId,
        email,
        inviteeSubject,
        roles,
        role: roles.join(','),
        teamIds,
        status: 'pending',
        inviterId,
        expiresAt,
        createdAt,
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
  state: ActiveOrganization,
  invitationId: string,
  status: Invitation['status'],
): ActiveOrganization => ({
  ...state,
  invitations: updated(state.invitations, invitationId, (invitation) => ({ ...invitation, status })),
})

/// Queries over the state (also used by the use cases' answers)

export const memberOfUser = (state: ActiveOrganization, userId: string): Member | undefined => {
  const memberId = state.memberIdsByUser.get(userId)
  return memberId === undefined ? undefined : state.members.get(memberId)
}

export const isCreator = (role: string, policy: OrganizationPolicy) =>
  rolesOf(role).includes(policy.creatorRole)

export const ownerCount = (state: ActiveOrganization, policy: OrganizationPolicy) =>
  [...state.members.values()].filter((member) => isCreator(member.role, policy)).length

/** The organization's custom roles as permission data, by name. */
export const customRolesOf = (state: ActiveOrganization): Record<string, Statements> =>
  Object.fromEntries([...state.roles.values()].map(({ role, permission }) => [role, permission]))

export const isPendingAt = (invitation: Invitation, now: string): boolean =>
  invitation.status === 'pending' && Date.parse(invitation.expiresAt) > Date.parse(now)
