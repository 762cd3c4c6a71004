/// The `data` of admin create-user and update-user, checked field by field (the body schemas leave
/// it open, as better-auth's do): each field an operator may set, its type, and the permission it
/// needs besides the route's own. A field Tessera does not store is refused, never ignored.

import type { PermissionRequest } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS, type AuthErrorCode, invalidBodyField } from '../../domain/errors.js'
import { type AdminCaller, callerMay } from '../../http/guards/admin-caller.js'
import type { AdminUserUpdate, BanFieldsInput, CreatedUserFields } from './manage-users.js'
import { checkedRoles } from './manage-users.js'

type FieldRule = { permission?: PermissionRequest; refusal?: AuthErrorCode }

const BAN: FieldRule = { permission: { user: ['ban'] }, refusal: 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS' }
const EMAIL: FieldRule = {
  permission: { user: ['set-email'] },
  refusal: 'YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL',
}

/** The update-user fields an operator may send, and what each needs besides `user: update`. */
const UPDATE_FIELDS: Record<string, FieldRule> = {
  name: {},
  image: {},
  email: EMAIL,
  emailVerified: EMAIL,
  role: { permission: { user: ['set-role'] }, refusal: 'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE' },
  banned: BAN,
  banReason: BAN,
  banExpires: BAN,
}

/**
 * The create-user `data` fields (besides `role`, which the route checks with the body's), and what
 * each needs besides `user: create`. As better-auth: the ban fields need `user: ban`; the address is
 * the creator's to vouch for, so `emailVerified` needs nothing more.
 */
const CREATE_FIELDS: Record<string, FieldRule> = {
  image: {},
  emailVerified: {},
  username: {},
  displayUsername: {},
  banned: BAN,
  banReason: BAN,
  banExpires: BAN,
}

const optionalString = (data: Record<string, unknown>, key: string, nullable = false) => {
  const value = data[key]
  if (value === undefined) return undefined
  if (typeof value === 'string' || (nullable && value === null)) return value as string | null
  throw invalidBodyField(`data.${key}`, nullable ? 'must be a string or null' : 'must be a string')
}

const optionalBoolean = (data: Record<string, unknown>, key: string) => {
  const value = data[key]
  if (value !== undefined && typeof value !== 'boolean')
    throw invalidBodyField(`data.${key}`, 'must be a boolean')
  return value as boolean | undefined
}

const checkFields = (
  caller: AdminCaller,
  data: Record<string, unknown>,
  rules: Record<string, FieldRule>,
  unknownField: string,
) => {
  for (const key of Object.keys(data)) {
    const rule = rules[key]
    if (!rule) throw invalidBodyField(`data.${key}`, unknownField)
    if (rule.permission && !callerMay(caller, rule.permission))
      throw AUTH_ERRORS.error(rule.refusal ?? 'FORBIDDEN')
  }
}

/** `banned`, `banReason` and `banExpires` as given (an ISO date, or null); absent ones left out. */
const banFieldsOf = (data: Record<string, unknown>): BanFieldsInput => {
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

/** update-user's `data`: the changes, or the refusal. */
export const adminUpdateOf = (
  caller: AdminCaller,
  userId: string,
  data: Record<string, unknown>,
): AdminUserUpdate => {
  if (Object.keys(data).length === 0) throw AUTH_ERRORS.error('NO_DATA_TO_UPDATE')
  if (Object.hasOwn(data, 'password')) throw AUTH_ERRORS.error('PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER')
  checkFields(caller, data, UPDATE_FIELDS, 'is not a field an operator may update')
  if (data.banned === true && caller.userId === userId) throw AUTH_ERRORS.error('YOU_CANNOT_BAN_YOURSELF')
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

/** create-user's `data` without `role`: the new user's other fields, or the refusal. */
export const adminCreateDataOf = (caller: AdminCaller, data: Record<string, unknown>): CreatedUserFields => {
  checkFields(caller, data, CREATE_FIELDS, 'is not a field an operator may set on a new user')
  const image = optionalString(data, 'image', true)
  const emailVerified = optionalBoolean(data, 'emailVerified')
  const username = optionalString(data, 'username')
  const displayUsername = optionalString(data, 'displayUsername')
  return {
    ...(image !== undefined ? { image } : {}),
    ...(emailVerified !== undefined ? { emailVerified } : {}),
    ...(typeof username === 'string' ? { username } : {}),
    ...(typeof displayUsername === 'string' ? { displayUsername } : {}),
    ban: banFieldsOf(data),
  }
}
