/// Teams: create, rename, remove, and their members.

import type { OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent } from './organization.events.js'
import { actingMember, type Command, fail } from './organization.rules.js'
import { type ActiveOrganization, memberOfUser } from './organization.state.js'

export const teamAddition = (
  state: ActiveOrganization,
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

export const createTeam = (
  command: Command<'create-team'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { team: ['create'] },
    () => fail('YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION'),
  )
  const maximum = policy.teams.maximumTeams
  if (maximum !== null && state.teams.size >= maximum) fail('YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS')
  const { teamId, name, now } = command
  return [
    {
      type: 'organization.team-created',
      data: { organizationId: state.organizationId, teamId, name, createdAt: now, updatedAt: now },
    },
  ]
}

export const updateTeam = (
  command: Command<'update-team'>,
  state: ActiveOrganization,
): OrganizationEvent[] => {
  // The team first, then who asks (a team of another organization is not found either).
  const team = state.teams.get(command.teamId) ?? fail('TEAM_NOT_FOUND')
  actingMember(
    state,
    command.actorUserId,
    { team: ['update'] },
    () => fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM'),
  )
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

export const removeTeam = (
  command: Command<'remove-team'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
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
  if (!policy.teams.allowRemovingAllTeams && state.teams.size <= 1) fail('UNABLE_TO_REMOVE_LAST_TEAM')
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

export const addTeamMember = (
  command: Command<'add-team-member'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  actingMember(
    state,
    command.actorUserId,
    { member: ['update'] },
    () => fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION'),
    () => fail('YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER'),
  )
  if (!memberOfUser(state, command.userId)) fail('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
  return teamAddition(state, command, policy)
}

export const removeTeamMember = (
  command: Command<'remove-team-member'>,
  state: ActiveOrganization,
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
