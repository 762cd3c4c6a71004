import { SCIM_ERRORS } from '../../domain/scim/scim-errors.js'
import type { ScimGroupCommand, ScimGroupOperation } from '../../domain/scim/scim-group.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { type ScimPrincipal, scimActor } from '../../http/scim/scim-auth.js'
import { newId } from '../../infra/crypto/tokens.js'
import { UniqueClaimConflictError } from '../../infra/event-store/event-store.js'
import {
  findScimGroup,
  provisionedAmong,
  type ScimGroupView,
} from '../../projections/scim/scim-groups.repository.js'
import type { CommandContext } from '../context.js'
import { withTeam } from './scim-team-follower.js'

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
  await uniquely(() => withTeam(ctx, metadata, organizationId, groupId, command, true))
  return mustFind(ctx, principal, groupId)
}

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
  await uniquely(() => withTeam(ctx, metadata, organizationId, groupId, command, false))
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
  const command: ScimGroupCommand = { type: 'delete-scim-group', connectionId: principal.connectionId }
  await withTeam(ctx, metadata, principal.organizationId, groupId, command, false)
}
