/// The `data` of admin create-user, checked field by field (the body schema leaves it open, as
/// better-auth's does): each field an operator may set, its type, and the permission it needs besides
/// the route's own. A field Tessera does not store is refused, never ignored. update-user's `data`
/// goes to the user decider whole (domain/user/user.admin-update.ts), which reads it the same way.

import type { PermissionRequest } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS, type AuthErrorCode, invalidBodyField } from '../../domain/errors.js'
import { banFieldsOf, optionalBoolean, optionalString } from '../../domain/user/user.admin-update.js'
import { type AdminCaller, callerMay } from '../../http/guards/admin-caller.js'
import type { CreatedUserFields } from './manage-users.js'

type FieldRule = { permission?: PermissionRequest; refusal?: AuthErrorCode }

const BAN: FieldRule = { permission: { user: ['ban'] }, refusal: 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS' }

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
