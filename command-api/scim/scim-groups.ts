/// SCIM Groups: each call is a command on the group's stream (scim-group), with the SCIM credential
/// as actor, and the organization's team of the same id follows it: created, renamed and removed
/// in the same append as the group, its members added and removed right after, one organization
/// command each (the organization decider takes one team member per command).

import type { OrganizationCommand } from '../../domain/organization/organization.commands.js'
import { organizationClaims, organizationStream } from '../../domain/organization/organization.js'
import { SCIM_ERRORS } from '../../domain/scim/scim-errors.js'
import {
  type ScimGroupCommand,
  type ScimGroupEvent,
  type ScimGroupOperation,
  scimGroupClaims,
  scimGroupDecider,
  scimGroupStream,
} from '../../domain/scim/scim-group.js'
import { isDomainError } from '../../domain/shared/errors.js'
import { type EventMetadata, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { type ScimPrincipal, scimActor } from '../../http/scim/scim-auth.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import {
  findScimGroup,
  provisionedAmong,
  type ScimGroupView,
} from '../../projections/scim/scim-groups.repository.js'
import type { CommandContext } from '../context.js'
import { handlePart } from '../shared/handle.js'
import { refuseTeamSide } from './scim-group-team-check.js'

export type ScimGroupInput = { displayName: string; externalId: string | null; members: string[] }

/** A displayName or externalId another group of the connection holds is a `uniqueness` conflict. */
const uniquely = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run()
  } catch (error) {
    if (error instanceof UniqueClaimConflictError) throw SCIM_ERRORS.error('SCIM_GROUP_ALREADY_EXISTS')
    throw error
  }
}

const mustFind = async (ctx: CommandContext, principal: ScimPrincipal, groupId: string) => {
  const row = await findScimGroup(ctx.db, principal.connectionId, groupId)
  if (!row) throw SCIM_ERRORS.error('SCIM_GROUP_NOT_FOUND')
  return row
}

export const findOwnScimGroup = mustFind

const groupPart = (metadata: EventMetadata, groupId: string, command: ScimGroupCommand, newStream = false) =>
  handlePart(scimGroupDecider, scimGroupStream(groupId), command, {
    metadata,
    claims: scimGroupClaims,
    newStream,
  })

const teamPart = (
  ctx: CommandContext,
  metadata: EventMetadata,
  organizationId: string,
  command: OrganizationCommand,
) =>
  handlePart(ctx.organizations, organizationStream(organizationId), command, {
    metadata,
    claims: organizationClaims,
  })

/**
 * A member the team cannot follow is left as the organization has it: a person who has since left
 * the organization (or the team), or a team an administrator removed. The group still records them.
 */
const TEAM_DRIFT = new Set([
  'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
  'USER_IS_NOT_A_MEMBER_OF_THE_TEAM',
  'TEAM_NOT_FOUND',
])

const followMembers = async (
  ctx: CommandContext,
  metadata: EventMetadata,
  events: readonly ScimGroupEvent[],
) => {
  const now = ctx.clock().toISOString()
  for (const event of events) {
    if (event.type !== 'scim.group-members-changed' && event.type !== 'scim.group-created') continue
    const { groupId: teamId, organizationId } = event.data
    const added = event.type === 'scim.group-created' ? event.data.members : event.data.added
    const removed = event.type === 'scim.group-created' ? [] : event.data.removed
    const commands: OrganizationCommand[] = [
      ...added.map((userId) => ({
        type: 'add-team-member' as const,
        actorUserId: null,
        teamId,
        userId,
        teamMemberId: newId(),
        now,
      })),
      ...removed.map((userId) => ({
        type: 'remove-team-member' as const,
        actorUserId: null,
        teamId,
        userId,
      })),
    ]
    for (const command of commands)
      await ctx
        .handle(ctx.organizations, organizationStream(organizationId), command, {
          metadata,
          claims: organizationClaims,
        })
        .catch((error: unknown) => {
          if (!(isDomainError(error) && TEAM_DRIFT.has(error.code))) throw error
        })
  }
}

export const createScimGroup = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  input: ScimGroupInput,
): Promise<ScimGroupView> => {
  const groupId = newId()
  const metadata = metadataFor(origin, scimActor(principal), ctx.clock())
  const { connectionId, organizationId } = principal
  const provisioned = await provisionedAmong(ctx.db, connectionId, input.members)
  const command: ScimGroupCommand = {
    type: 'create-scim-group',
    groupId,
    organizationId,
    connectionId,
    provisioned,
    teamsEnabled: ctx.config.organization.teams.enabled,
    ...input,
  }
  await refuseTeamSide(ctx, scimGroupStream(groupId), organizationId, command)
  const [group] = await uniquely(() =>
    ctx.handle.together([
      groupPart(metadata, groupId, command, true),
      teamPart(ctx, metadata, organizationId, {
        type: 'create-team',
        actorUserId: null,
        teamId: groupId,
        name: input.displayName.trim(),
        now: ctx.clock().toISOString(),
      }),
    ]),
  )
  await followMembers(ctx, metadata, group.events)
  return mustFind(ctx, principal, groupId)
}

/** The name the operations leave, whatever the group's was: the last `set-display-name`. */
const renamedTo = (operations: readonly ScimGroupOperation[]): string | null =>
  operations.reduce<string | null>(
    (name, operation) => (operation.op === 'set-display-name' ? operation.value.trim() : name),
    null,
  )

/** PUT and PATCH: the operations applied on the group's stream (PUT replaces every attribute). */
export const changeScimGroup = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  groupId: string,
  operations: ScimGroupOperation[],
): Promise<ScimGroupView> => {
  await mustFind(ctx, principal, groupId)
  const metadata = metadataFor(origin, scimActor(principal), ctx.clock())
  const { connectionId, organizationId } = principal
  const named = operations.flatMap((operation) => ('userIds' in operation ? operation.userIds : []))
  const provisioned = await provisionedAmong(ctx.db, connectionId, [...new Set(named)])
  const command: ScimGroupCommand = {
    type: 'change-scim-group',
    connectionId,
    provisioned,
    operations,
    teamsEnabled: ctx.config.organization.teams.enabled,
  }
  await refuseTeamSide(ctx, scimGroupStream(groupId), organizationId, command)
  const name = renamedTo(operations)
  const rename = teamPart(ctx, metadata, organizationId, {
    type: 'update-team',
    actorUserId: null,
    teamId: groupId,
    name: name ?? undefined,
    now: ctx.clock().toISOString(),
  })
  const group = groupPart(metadata, groupId, command)
  const [changed] = await uniquely(() =>
    ctx.handle.together(name === null ? [group] : [group, rename]),
  ).catch((error: unknown) => {
    // The team was removed by an administrator: the group is renamed all the same.
    if (isDomainError(error) && error.code === 'TEAM_NOT_FOUND')
      return uniquely(() => ctx.handle.together([group]))
    throw error
  })
  await followMembers(ctx, metadata, changed.events)
  return mustFind(ctx, principal, groupId)
}

export const deleteScimGroup = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  principal: ScimPrincipal,
  groupId: string,
): Promise<void> => {
  await mustFind(ctx, principal, groupId)
  const metadata = metadataFor(origin, scimActor(principal), ctx.clock())
  const group = groupPart(metadata, groupId, {
    type: 'delete-scim-group',
    connectionId: principal.connectionId,
  })
  const team = teamPart(ctx, metadata, principal.organizationId, {
    type: 'remove-team',
    actorUserId: null,
    teamId: groupId,
    activeTeamId: null,
  })
  await ctx.handle.together([group, team]).catch((error: unknown) => {
    if (isDomainError(error) && error.code === 'TEAM_NOT_FOUND') return ctx.handle.together([group])
    throw error
  })
}
