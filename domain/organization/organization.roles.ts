/// Custom roles (dynamic access control): a role grants only what its author holds.

import type { OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent, PermissionStatements } from './organization.events.js'
import { actingMember, type Command, fail } from './organization.rules.js'
import { type ActiveOrganization, type CustomRole, customRolesOf, type Member } from './organization.state.js'
import { hasPermission, isBuiltInRole, rolesOf, unknownResources } from './permissions.js'

/// Custom roles (dynamic access control)

const roleByIdOrName = (state: ActiveOrganization, idOrName: string): CustomRole | undefined =>
  state.roles.get(idOrName) ?? [...state.roles.values()].find((role) => role.role === idOrName)

/** A role may only grant what its author holds (no escalation through a custom role). */
const assertGrantable = (
  state: ActiveOrganization,
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

const assertFreeRoleName = (state: ActiveOrganization, name: string, except: string | null) => {
  if (isBuiltInRole(name)) fail('ROLE_NAME_IS_ALREADY_TAKEN')
  const taken = [...state.roles.values()].some((role) => role.role === name && role.roleId !== except)
  if (taken) fail('ROLE_NAME_IS_ALREADY_TAKEN')
}

export const createRole = (
  command: Command<'create-role'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  const dynamic = policy.dynamicRoles ?? fail('NOT_FOUND')
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

export const updateRole = (
  command: Command<'update-role'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  if (!policy.dynamicRoles) fail('NOT_FOUND')
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

export const deleteRole = (
  command: Command<'delete-role'>,
  state: ActiveOrganization,
  policy: OrganizationPolicy,
): OrganizationEvent[] => {
  if (!policy.dynamicRoles) fail('NOT_FOUND')
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
