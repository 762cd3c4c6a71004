/// Custom roles per organization (better-auth's dynamic access control), off unless
/// `organization.dynamicAccessControl.enabled`. A role may grant only what its author holds.

import { AUTH_ERRORS, errorWithStatus } from '../../domain/errors.js'
import type { PermissionStatements } from '../../domain/organization/organization.events.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import type { RoleRow } from '../../http/ports/organization-lookup.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { runOrganizationCommand } from './organization-command.js'

const roleNamed = async (ctx: CommandContext, organizationId: string, idOrName: string) => {
  const roles = await ctx.lookups.organizations.listRoles(organizationId)
  const row = roles.find((role) => role.id === idOrName) ?? roles.find((role) => role.role === idOrName)
  if (!row) throw AUTH_ERRORS.error('INTERNAL_SERVER_ERROR')
  return row
}

export const createRole = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { organizationId?: string; role: string; permission: PermissionStatements },
): Promise<RoleRow> => {
  const organizationId = input.organizationId || auth.session.active_organization_id
  if (!organizationId) throw errorWithStatus('YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE', 400)
  const roleId = newId()
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'create-role',
      actorUserId: auth.user.id,
      roleId,
      role: input.role,
      permission: input.permission,
      now: ctx.clock().toISOString(),
    },
    { type: 'user', userId: auth.user.id },
  )
  return roleNamed(ctx, organizationId, roleId)
}

export const updateRole = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: {
    organizationId?: string
    roleIdOrName: string
    data: { permission?: PermissionStatements; roleName?: string }
  },
): Promise<RoleRow> => {
  const organizationId = input.organizationId || auth.session.active_organization_id
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  const { events } = await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'update-role',
      actorUserId: auth.user.id,
      roleIdOrName: input.roleIdOrName,
      newName: input.data.roleName,
      permission: input.data.permission,
      now: ctx.clock().toISOString(),
    },
    { type: 'user', userId: auth.user.id },
  )
  const [event] = events
  const roleId = event && 'roleId' in event.data ? event.data.roleId : input.roleIdOrName
  return roleNamed(ctx, organizationId, roleId)
}

export const deleteRole = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  auth: FoundSession,
  input: { organizationId?: string; roleIdOrName: string },
): Promise<void> => {
  const organizationId = input.organizationId || auth.session.active_organization_id
  if (!organizationId) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  await runOrganizationCommand(
    ctx,
    origin,
    organizationId,
    {
      type: 'delete-role',
      actorUserId: auth.user.id,
      roleIdOrName: input.roleIdOrName,
    },
    { type: 'user', userId: auth.user.id },
  )
}
