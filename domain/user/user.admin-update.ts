/// Admin update-user (better-auth's admin plugin), judged whole by the user decider: the `data` as
/// the operator sent it (the body schema leaves it open, as better-auth's does) and what the
/// operator may do besides updating (resolved at the edge from their roles). Its refusals, in the
/// order the route has always answered them: nothing to update, a password, each field in the order
/// sent (one Tessera does not store, one the operator may not set), banning oneself, a field of the
/// wrong type, a role that is not one.

import { joinRoles, rolesExist } from '../admin/permissions.js'
import { AUTH_ERRORS, type AuthErrorCode, invalidBodyField } from '../errors.js'

/** The permissions beyond `user: update` that some fields need. */
export type AdminGrant = 'ban' | 'setEmail' | 'setRole'

export type AdminUpdateUserCommand = {
  type: 'admin-update-user'
  /** The account asked for, as the request named it (refusals come before it is looked at). */
  userId: string
  data: Readonly<Record<string, unknown>>
  /** Whether the operator holds `user: ban`, `user: set-email`, `user: set-role` (or a server key). */
  may: Readonly<Record<AdminGrant, boolean>>
  /** The operator's own user id when a person updates (no one may ban themselves). */
  operatorId?: string
}

/** update-user's changes, each field as given; absent ones are left alone. */
export type AdminUserUpdate = {
  name?: string
  image?: string | null
  email?: string
  emailVerified?: boolean
  role?: string
  banned?: boolean
  banReason?: string | null
  banExpires?: string | null
}

const REFUSALS: Record<AdminGrant, AuthErrorCode> = {
  ban: 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS',
  setEmail: 'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL',
  setRole: 'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE',
}

/** The fields an operator may update, and the grant each needs besides `user: update`. */
const FIELDS: Record<string, AdminGrant | null> = {
  name: null,
  image: null,
  email: 'setEmail',
  emailVerified: 'setEmail',
  role: 'setRole',
  banned: 'ban',
  banReason: 'ban',
  banExpires: 'ban',
}

/** A role value as given: strings only (400 INVALID_ROLE_TYPE), each a role that exists. */
export const checkedRoles = (role: unknown): string => {
  const roles = Array.isArray(role) ? role : [role]
  if (roles.length === 0 || roles.some((name) => typeof name !== 'string'))
    throw AUTH_ERRORS.error('INVALID_ROLE_TYPE')
  if (!rolesExist(roles as string[])) throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE')
  return joinRoles(roles as string[])
}

export const optionalString = (data: Readonly<Record<string, unknown>>, key: string, nullable = false) => {
  const value = data[key]
  if (value === undefined) return undefined
  if (typeof value === 'string' || (nullable && value === null)) return value as string | null
  throw invalidBodyField(`data.${key}`, nullable ? 'must be a string or null' : 'must be a string')
}

export const optionalBoolean = (data: Readonly<Record<string, unknown>>, key: string) => {
  const value = data[key]
  if (value !== undefined && typeof value !== 'boolean')
    throw invalidBodyField(`data.${key}`, 'must be a boolean')
  return value as boolean | undefined
}

/** `banned`, `banReason` and `banExpires` as given (an ISO date, or null); absent ones left out. */
export const banFieldsOf = (data: Readonly<Record<string, unknown>>) => {
  const banned = optionalBoolean(data, 'banned')
  const banReason = optionalString(data, 'banReason', true)
  const banExpires = optionalString(data, 'banExpires', true)
  if (banExpires && Number.isNaN(Date.parse(banExpires)))
    throw invalidBodyField('data.banExpires', 'must be a date')
  return {
    ...(banned !== undefined ? { banned } : {}),
    ...(banReason !== undefined ? { banReason } : {}),
    ...(banExpires !== undefined
      ? { banExpires: banExpires === null ? null : new Date(banExpires).toISOString() }
      : {}),
  }
}

const refuseFields = ({ data, may }: AdminUpdateUserCommand): void => {
  for (const key of Object.keys(data)) {
    const grant = FIELDS[key]
    if (grant === undefined) throw invalidBodyField(`data.${key}`, 'is not a field an operator may update')
    if (grant !== null && !may[grant]) throw AUTH_ERRORS.error(REFUSALS[grant])
  }
}

/** The changes update-user asks for, or its refusal (before the account itself is looked at). */
export const judgedAdminUpdate = (command: AdminUpdateUserCommand): AdminUserUpdate => {
  const { data } = command
  if (Object.keys(data).length === 0) throw AUTH_ERRORS.error('NO_DATA_TO_UPDATE')
  if (Object.hasOwn(data, 'password')) throw AUTH_ERRORS.error('PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER')
  refuseFields(command)
  if (data.banned === true && command.operatorId === command.userId)
    throw AUTH_ERRORS.error('YOU_CANNOT_BAN_YOURSELF')
  const ban = banFieldsOf(data)
  const emailVerified = optionalBoolean(data, 'emailVerified')
  const name = optionalString(data, 'name')
  const email = optionalString(data, 'email')
  const image = optionalString(data, 'image', true)
  return {
    ...(name !== undefined && name !== null ? { name } : {}),
    ...(image !== undefined ? { image } : {}),
    ...(email !== undefined && email !== null ? { email } : {}),
    ...(emailVerified !== undefined ? { emailVerified } : {}),
    ...(data.role !== undefined ? { role: checkedRoles(data.role) } : {}),
    ...ban,
  }
}
