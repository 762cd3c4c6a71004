/// The errors of directory sync (SCIM) and its credentials, declared once with code, status and
/// message. SCIM routes answer them in RFC 7644's Error schema (the code becomes `scimType` where
/// the RFC has one); the credential routes and sign-in answer `{code, message}` as every route does.

import { defineErrors } from '../shared/errors.js'

export const SCIM_ERRORS = defineErrors({
  SCIM_USER_NOT_FOUND: [404, 'User not found'],
  /** userName, externalId or email already held (RFC 7644 scimType `uniqueness`). */
  SCIM_USER_ALREADY_EXISTS: [409, 'User already exists'],
  /** A directory deactivated the person: no sign-in by any method until it reactivates them. */
  SCIM_GROUP_NOT_FOUND: [404, 'SCIM Group not found'],
  /** displayName or externalId already held by another group of the connection (`uniqueness`). */
  SCIM_GROUP_ALREADY_EXISTS: [409, 'SCIM Group already exists'],
  SCIM_GROUP_DISPLAY_NAME_EMPTY: [400, 'displayName cannot be empty'],
  /** A member is not a person the same connection provisioned. */
  SCIM_GROUP_MEMBER_INVALID: [400, 'One or more Group members are invalid'],
  SCIM_GROUP_TOO_MANY_MEMBERS: [400, 'Groups cannot contain more than 1000 direct members'],
  /** Groups are the organization's teams: with teams turned off there is nothing to map them to. */
  SCIM_GROUPS_NEED_TEAMS: [
    403,
    'Groups map to teams, and teams are turned off for this organization; provision Users only',
  ],
  USER_DEACTIVATED: [403, 'Your account has been deactivated by your organization'],
  SCIM_CREDENTIAL_NOT_FOUND: [404, 'Managed SCIM credential not found'],
  SCIM_CREDENTIAL_ALREADY_REVOKED: [409, 'Managed SCIM credential is already revoked'],
  SCIM_CREDENTIAL_LIMIT_REACHED: [409, 'Managed SCIM connection has reached its active credential limit'],
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM: [
    403,
    'You are not allowed to manage directory sync for this organization',
  ],
})

export type ScimErrorCode = Parameters<typeof SCIM_ERRORS.error>[0]
