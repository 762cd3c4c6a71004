/// The organization aggregate: the organization with its members, teams, invitations and custom
/// roles, in one stream (`organization-<id>`). Every rule that spans them holds because it is
/// decided against one folded state and appended with optimistic concurrency: the last owner, the
/// membership limit (two accepts for the last seat: one wins), accepting an invitation together
/// with the member it creates, accept against cancel. Each sub-entity's rules live in its own file
/// (`organization.<members|invitations|teams|roles|lifecycle>.ts`); `decide` only dispatches.

import type { Decider } from '../shared/decider.js'
import { DomainError } from '../shared/errors.js'
import type { OrganizationCommand, OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent } from './organization.events.js'
import { accept, cancel, invite, reject } from './organization.invitations.js'
import { create, remove, removeDeletedUser, update } from './organization.lifecycle.js'
import { addMember, leave, removeMember, updateMemberRole } from './organization.members.js'
import { createRole, deleteRole, updateRole } from './organization.roles.js'
import { fail } from './organization.rules.js'
import { emptyOrganization, evolve, initialState, type Organization } from './organization.state.js'
import { addTeamMember, createTeam, removeTeam, removeTeamMember, updateTeam } from './organization.teams.js'

export * from './organization.claims.js'
export type { OrganizationCommand, OrganizationPolicy } from './organization.commands.js'
export type { OrganizationEvent } from './organization.events.js'
export * from './organization.state.js'

/** What a command about an organization that is not there (never made, or deleted) answers. */
const refuseAbsent = (command: OrganizationCommand): never => {
  switch (command.type) {
    // Whoever asks about an organization that is not there is not one of its members.
    case 'update-organization':
    case 'delete-organization':
      return fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
    case 'accept-invitation':
    case 'cancel-invitation':
      return fail('INVITATION_NOT_FOUND')
    case 'reject-invitation':
      return fail('INVITATION_NOT_FOUND', 400, 'Invitation not found!')
    case 'leave-organization':
    case 'remove-member':
      return fail('MEMBER_NOT_FOUND')
    // No team can be found in an organization that is not there.
    case 'update-team':
      return fail('TEAM_NOT_FOUND')
    default:
      return fail('ORGANIZATION_NOT_FOUND')
  }
}

/** An organization with no member, standing in for one that is not there where the answer is the same. */
const nobodyThere = emptyOrganization({ organizationId: '', name: '', slug: '', logo: null, metadata: null })

/** What is refused before the organization is looked at (better-auth's order). */
const refuseWhateverTheState = (command: OrganizationCommand, policy: OrganizationPolicy) => {
  if (command.type === 'delete-organization' && policy.disableOrganizationDeletion)
    throw new DomainError('ORGANIZATION_DELETION_DISABLED', 404, 'Organization deletion is disabled')
  if (command.type === 'add-member') {
    if (command.teamId !== null && !policy.teams.enabled) fail('TEAMS_NOT_ENABLED')
    if (!command.userExists) fail('USER_NOT_FOUND', 400)
  }
}

export const decide = (
  command: OrganizationCommand,
  state: Organization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  if (command.type === 'create-organization') return create(command, state, policy)
  if (command.type === 'remove-deleted-user') return removeDeletedUser(command, state)
  refuseWhateverTheState(command, policy)
  // A member id of another organization is refused as better-auth does, with or without this one.
  if (command.type === 'update-member-role' && state.status !== 'active')
    return updateMemberRole(command, nobodyThere, policy)
  if (state.status !== 'active') return refuseAbsent(command)
  switch (command.type) {
    case 'update-organization':
      return update(command, state)
    case 'delete-organization':
      return remove(command, state)
    case 'add-member':
      return addMember(command, state, policy)
    case 'remove-member':
      return removeMember(command, state, policy)
    case 'leave-organization':
      return leave(command, state, policy)
    case 'update-member-role':
      return updateMemberRole(command, state, policy)
    case 'invite-member':
      return invite(command, state, policy)
    case 'accept-invitation':
      return accept(command, state, policy)
    case 'reject-invitation':
      return reject(command, state, policy)
    case 'cancel-invitation':
      return cancel(command, state)
    case 'create-team':
      return createTeam(command, state, policy)
    case 'update-team':
      return updateTeam(command, state)
    case 'remove-team':
      return removeTeam(command, state, policy)
    case 'add-team-member':
      return addTeamMember(command, state, policy)
    case 'remove-team-member':
      return removeTeamMember(command, state)
    case 'create-role':
      return createRole(command, state, policy)
    case 'update-role':
      return updateRole(command, state, policy)
    case 'delete-role':
      return deleteRole(command, state, policy)
  }
}

export type OrganizationDecider = Decider<OrganizationCommand, OrganizationEvent, Organization>

/** The aggregate with the configured limits bound once (the composition root does it, from config). */
export const organizationDecider = (policy: OrganizationPolicy): OrganizationDecider => ({
  decide: (command, state) => decide(command, state, policy),
  evolve,
  initialState,
})
