/// Teams (inside their organization's stream): create, update, remove, add and remove members, and
/// the session's active team.

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import type { TeamMemberRow, TeamRow } from '../../http/ports/organization-lookup.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import {
  actorOf,
  actorUserIdOf,
  type Caller,
  runOrganizationCommand,
  setSessionContext,
} from './organization-command.js'

/** The organization a team request is about: the one named, else the session's active one. */
const organizationOf = (caller: Caller, named: string | undefined): string => {
  const organizationId =
    named || (caller.kind === 'user' ? caller.session.session.active_organization_id : null)
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  return organizationId
}

/** A team of that organization, else TEAM_NOT_FOUND (a team id of another organization included). */
const teamIn = async (ctx: CommandContext, organizationId: string, teamId: string): Promise<TeamRow> => {
  const team = await ctx.lookups.organizations.findTeam(teamId)
  if (!team || team.organization_id !== organizationId) throw AUTH_ERRORS.error('TEAM_NOT_FOUND')
  return team
}

const reread = async (ctx: CommandContext, teamId: string): Promise<TeamRow> => {
  const team = await ctx.lookups.organizations.findTeam(teamId)
  if (!team) throw AUTH_ERRORS.error('INTERNAL_SERVER_ERROR')
  return team
}

export const createTeam = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: { name: string; organizationId?: string },
): Promise<TeamRow> => {
  const organizationId = organizationOf(caller, input.organizationId)
  const teamId = newId()
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'create-team',
      actorUserId: actorUserIdOf(caller),
      teamId,
      name: input.name,
      now: ctx.clock().toISOString(),
    },
    actorOf(caller),
  )
  return reread(ctx, teamId)
}

export const updateTeam = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: { teamId: string; data: { name?: string; organizationId?: string } },
): Promise<TeamRow> => {
  const organizationId = organizationOf(caller, input.data.organizationId)
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'update-team',
      actorUserId: actorUserIdOf(caller),
      teamId: input.teamId,
      name: input.data.name,
      now: ctx.clock().toISOString(),
    },
    actorOf(caller),
  )
  return reread(ctx, input.teamId)
}

export const removeTeam = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: { teamId: string; organizationId?: string },
): Promise<void> => {
  const organizationId = organizationOf(caller, input.organizationId)
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'remove-team',
      actorUserId: actorUserIdOf(caller),
      teamId: input.teamId,
      activeTeamId: caller.kind === 'user' ? caller.session.session.active_team_id : null,
    },
    actorOf(caller),
  )
}

export const addTeamMember = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: { teamId: string; userId: string; organizationId?: string },
): Promise<TeamMemberRow> => {
  const named =
    input.organizationId ?? (await ctx.lookups.organizations.findTeam(input.teamId))?.organization_id
  const organizationId = organizationOf(caller, named)
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'add-team-member',
      actorUserId: actorUserIdOf(caller),
      teamId: input.teamId,
      userId: input.userId,
      teamMemberId: newId(),
      now: ctx.clock().toISOString(),
    },
    actorOf(caller),
  )
  const row = await ctx.lookups.organizations.findTeamMember(input.teamId, input.userId)
  if (!row) throw AUTH_ERRORS.error('INTERNAL_SERVER_ERROR')
  return row
}

export const removeTeamMember = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: Caller,
  input: { teamId: string; userId: string; organizationId?: string },
): Promise<void> => {
  const named =
    input.organizationId ?? (await ctx.lookups.organizations.findTeam(input.teamId))?.organization_id
  const organizationId = organizationOf(caller, named)
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'remove-team-member',
      actorUserId: actorUserIdOf(caller),
      teamId: input.teamId,
      userId: input.userId,
    },
    actorOf(caller),
  )
}

/** null clears the active team; nothing named answers the current one. */
export const setActiveTeam = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  teamId: string | null | undefined,
): Promise<TeamRow | null> => {
  const { active_organization_id: organizationId, active_team_id: current } = auth.session
  if (teamId === null) {
    await setSessionContext(ctx, origin, auth, organizationId, null)
    return null
  }
  const wanted = teamId ?? current
  if (!wanted) return null
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  const team = await teamIn(ctx, organizationId, wanted)
  const inTeam = (await ctx.lookups.organizations.findTeamMember(team.id, auth.user.id)) !== undefined
  await setSessionContext(ctx, origin, auth, organizationId, team.id, { team: inTeam })
  return team
}
