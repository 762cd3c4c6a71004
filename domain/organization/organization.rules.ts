/// What the organization's deciders share: how they refuse, and who acts.

import { AUTH_ERRORS } from '../errors.js'
import { DomainError } from '../shared/errors.js'
import type { OrganizationCommand } from './organization.commands.js'
import { type ActiveOrganization, customRolesOf, type Member, memberOfUser } from './organization.state.js'
import { hasPermission, isBuiltInRole, type Statements } from './permissions.js'

/// Decide: every rule

export const fail = (
  code: Parameters<typeof AUTH_ERRORS.error>[0],
  status?: number,
  message?: string,
): never => {
  if (status === undefined && message === undefined) throw AUTH_ERRORS.error(code)
  throw new DomainError(code, status ?? AUTH_ERRORS[code].status, message ?? AUTH_ERRORS[code].message)
}

export type Command<T extends OrganizationCommand['type']> = Extract<OrganizationCommand, { type: T }>

/**
 * The acting member, checked for `permissions`; the server (actor null) may do anything. `notMember`
 * and `denied` are the refusals of the route that asks, as better-auth words them.
 */
export const actingMember = (
  state: ActiveOrganization,
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

const unknownRoles = (state: ActiveOrganization, roles: readonly string[]) => {
  const custom = new Set([...state.roles.values()].map((role) => role.role))
  return roles.filter((role) => !isBuiltInRole(role) && !custom.has(role))
}

export const assertKnownRoles = (state: ActiveOrganization, roles: readonly string[]) => {
  const unknown = unknownRoles(state, roles)
  if (unknown.length > 0) fail('ROLE_NOT_FOUND', 400, `ROLE_NOT_FOUND: ${unknown.join(', ')}`)
}
/** A seat in an event's data: none recorded when no seat was taken. */
export const seatOf = (seat: number | null): { seat?: number } => (seat === null ? {} : { seat })
