/// Every error the API answers, once: the code better-auth 1.7 uses for the same failure (apps and
/// its client switch on it), the HTTP status, and the spec's message.

import { PASSKEY_ERROR_DEFINITIONS } from './passkey/passkey-errors.js'
import { DomainError, defineErrors } from './shared/errors.js'

export const AUTH_ERRORS = defineErrors({
  // Passkeys (@better-auth/passkey)
  ...PASSKEY_ERROR_DEFINITIONS,
  // Accounts
  INVALID_EMAIL: [400, 'Invalid email'],
  PASSWORD_TOO_SHORT: [400, 'Password too short'],
  PASSWORD_TOO_LONG: [400, 'Password too long'],
  // Tessera's own (better-auth accepts the same password again).
  PASSWORD_SAME_AS_CURRENT: [400, 'New password must be different from the current one'],
  PASSWORD_COMPROMISED: [
    400,
    'The password you entered has been compromised. Please choose a different password.',
  ],
  INVALID_PASSWORD: [400, 'Invalid password'],
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: [422, 'User already exists. Use another email.'],
  FAILED_TO_CREATE_USER: [422, 'Failed to create user'],
  FAILED_TO_CREATE_SESSION: [400, 'Failed to create session'],
  USER_NOT_FOUND: [404, 'User not found'],
  INVALID_EMAIL_OR_PASSWORD: [401, 'Invalid email or password'],
  EMAIL_NOT_VERIFIED: [403, 'Email not verified'],
  EMAIL_PASSWORD_DISABLED: [400, 'Email and password is not enabled'],
  EMAIL_PASSWORD_SIGN_UP_DISABLED: [400, 'Email and password sign up is not enabled'],
  CREDENTIAL_ACCOUNT_NOT_FOUND: [400, 'Credential account not found'],
  EMAIL_CAN_NOT_BE_UPDATED: [400, 'Email can not be updated'],
  EMAIL_IS_THE_SAME: [400, 'Email is the same'],
  EMAIL_MISMATCH: [400, 'Email mismatch'],
  EMAIL_ALREADY_VERIFIED: [400, 'Email is already verified'],
  CHANGE_EMAIL_DISABLED: [400, 'Change email is disabled'],
  NO_FIELDS_TO_UPDATE: [400, 'No fields to update'],
  PASSWORD_ALREADY_SET: [400, 'user already has a password'],
  INVALID_TOKEN: [400, 'Invalid token'],
  TOKEN_EXPIRED: [400, 'Token expired'],
  // Email one-time codes (better-auth's emailOTP plugin: its codes, statuses and messages)
  OTP_EXPIRED: [400, 'OTP expired'],
  INVALID_OTP: [400, 'Invalid OTP'],
  TOO_MANY_ATTEMPTS: [403, 'Too many attempts'],
  CHANGE_EMAIL_WITH_OTP_IS_DISABLED: [400, 'Change email with OTP is disabled'],
  OTP_IS_REQUIRED_TO_VERIFY_CURRENT_EMAIL: [400, 'OTP is required to verify current email'],
  EMAIL_ALREADY_IN_USE: [400, 'Email already in use'],
  INVALID_OTP_TYPE: [400, 'Invalid OTP type'],
  // Usernames (better-auth's username plugin). The rule breaks carry 400, as on sign-up and
  // update-user; /sign-in/username and /is-username-available answer them with 422 (see
  // usernameError in domain/user/username.ts).
  USERNAME_TOO_SHORT: [400, 'Username is too short'],
  USERNAME_TOO_LONG: [400, 'Username is too long'],
  INVALID_USERNAME: [400, 'Username is invalid'],
  INVALID_DISPLAY_USERNAME: [400, 'Display username is invalid'],
  USERNAME_IS_ALREADY_TAKEN: [400, 'Username is already taken. Please try another.'],
  USERNAME_IS_IMMUTABLE: [400, 'Username cannot be updated'],
  INVALID_USERNAME_OR_PASSWORD: [401, 'Invalid username or password'],
  // Social sign-in and linked accounts (better-auth's codes; 401 where its id-token checks say so)
  PROVIDER_NOT_FOUND: [404, 'Provider not found'],
  ID_TOKEN_NOT_SUPPORTED: [404, 'id_token not supported'],
  FAILED_TO_GET_USER_INFO: [401, 'Failed to get user info'],
  USER_EMAIL_NOT_FOUND: [401, 'User email not found'],
  CALLBACK_URL_REQUIRED: [400, 'callbackURL is required'],
  SOCIAL_ACCOUNT_ALREADY_LINKED: [409, 'Social account already linked'],
  LINKING_NOT_ALLOWED: [401, 'Account not linked - linking not allowed'],
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: [401, 'Account not linked - different emails not allowed'],
  LINKING_FAILED: [417, 'Account not linked - unable to create account'],
  FAILED_TO_UNLINK_LAST_ACCOUNT: [400, "You can't unlink your last account"],
  ACCOUNT_NOT_FOUND: [400, 'Account not found'],
  SESSION_NOT_FRESH: [403, 'Session is not fresh'],
  PROVIDER_NOT_SUPPORTED: [400, 'Provider is not supported.'],
  TOKEN_REFRESH_NOT_SUPPORTED: [400, 'Provider does not support token refreshing.'],
  REFRESH_TOKEN_NOT_FOUND: [400, 'Refresh token not found'],
  ACCESS_TOKEN_NOT_FOUND: [400, 'Access token not found'],
  FAILED_TO_GET_ACCESS_TOKEN: [400, 'Failed to get a valid access token'],
  FAILED_TO_REFRESH_ACCESS_TOKEN: [400, 'Failed to refresh access token'],
  USER_ID_OR_SESSION_REQUIRED: [400, 'Either userId or session is required'],
  // Sessions
  UNAUTHORIZED: [401, 'Unauthorized'],
  SESSION_NOT_FOUND: [404, 'Session not found'],
  SESSION_EXPIRED: [400, 'Session expired. Re-authenticate to perform this action.'],
  // Multi-session: a device session the device does not hold, or one no longer valid.
  INVALID_SESSION_TOKEN: [401, 'Invalid session token'],
  // Administration (better-auth's admin plugin). BANNED_USER carries its bannedUserMessage.
  BANNED_USER: [
    403,
    'You have been banned from this application. Please contact support if you believe this is an error.',
  ],
  FORBIDDEN: [403, 'Forbidden'],
  YOU_CANNOT_BAN_YOURSELF: [400, 'You cannot ban yourself'],
  YOU_CANNOT_REMOVE_YOURSELF: [400, 'You cannot remove yourself'],
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: [403, 'You are not allowed to change users role'],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: [403, 'You are not allowed to create users'],
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: [403, 'You are not allowed to list users'],
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: [403, 'You are not allowed to list users sessions'],
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: [403, 'You are not allowed to ban users'],
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: [403, 'You are not allowed to impersonate users'],
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: [403, 'You are not allowed to revoke users sessions'],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: [403, 'You are not allowed to delete users'],
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: [403, 'You are not allowed to set users password'],
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: [403, 'You are not allowed to get user'],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: [403, 'You are not allowed to update users'],
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL: [403, 'You are not allowed to update users email'],
  YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE: [
    400,
    'You are not allowed to set a non-existent role value',
  ],
  YOU_CANNOT_IMPERSONATE_ADMINS: [403, 'You cannot impersonate admins'],
  INVALID_ROLE_TYPE: [400, 'Invalid role type'],
  NO_DATA_TO_UPDATE: [400, 'No data to update'],
  PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER: [
    400,
    'Password cannot be updated through update-user. Use the set-user-password endpoint instead',
  ],
  NOT_IMPERSONATING: [400, 'You are not impersonating anyone'],
  ADMIN_SESSION_NOT_FOUND: [500, 'Failed to find admin session'],
  // Requests
  VALIDATION_ERROR: [400, 'Invalid body parameters'],
  BODY_MUST_BE_AN_OBJECT: [400, 'Body must be an object'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'Unsupported media type'],
  PAYLOAD_TOO_LARGE: [413, 'Request body is too large'],
  NOT_FOUND: [404, 'Not Found'],
  INVALID_ORIGIN: [403, 'Invalid origin'],
  MISSING_OR_NULL_ORIGIN: [403, 'Missing or null Origin'],
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: [
    403,
    'Cross-site navigation login blocked. This request appears to be a CSRF attack.',
  ],
  INVALID_CALLBACK_URL: [403, 'Invalid callbackURL'],
  INVALID_REDIRECT_URL: [403, 'Invalid redirectURL'],
  INVALID_ERROR_CALLBACK_URL: [403, 'Invalid errorCallbackURL'],
  INVALID_NEW_USER_CALLBACK_URL: [403, 'Invalid newUserCallbackURL'],
  TOO_MANY_REQUESTS: [429, 'Too many requests. Please try again later.'],
  // API keys (better-auth's @better-auth/api-key 1.7: its codes, statuses and messages)
  UNAUTHORIZED_SESSION: [401, 'Unauthorized or invalid session'],
  KEY_NOT_FOUND: [404, 'API Key not found'],
  INVALID_METADATA_TYPE: [400, 'metadata must be an object or undefined'],
  REFILL_AMOUNT_AND_INTERVAL_REQUIRED: [400, 'refillAmount is required when refillInterval is provided'],
  REFILL_INTERVAL_AND_AMOUNT_REQUIRED: [400, 'refillInterval is required when refillAmount is provided'],
  EXPIRES_IN_IS_TOO_SMALL: [400, 'The expiresIn is smaller than the predefined minimum value.'],
  EXPIRES_IN_IS_TOO_LARGE: [400, 'The expiresIn is larger than the predefined maximum value.'],
  INVALID_PREFIX_LENGTH: [400, 'The prefix length is either too large or too small.'],
  INVALID_NAME_LENGTH: [400, 'The name length is either too large or too small.'],
  METADATA_DISABLED: [400, 'Metadata is disabled.'],
  NO_VALUES_TO_UPDATE: [400, 'No values to update.'],
  // Organization-owned keys: a caller who is not a member, or whose role lacks the `apiKey` action.
  USER_NOT_MEMBER_OF_ORGANIZATION: [403, 'You are not a member of the organization that owns this API key.'],
  INSUFFICIENT_API_KEY_PERMISSIONS: [
    403,
    'You do not have permission to perform this action on organization API keys.',
  ],
  // A refused key where better-auth throws (sessions from API keys); verify answers them in its body.
  INVALID_API_KEY: [401, 'Invalid API key.'],
  KEY_DISABLED: [401, 'API Key is disabled'],
  KEY_EXPIRED: [401, 'API Key has expired'],
  USAGE_EXCEEDED: [429, 'API Key has reached its usage limit'],
  RATE_LIMITED: [429, 'Rate limit exceeded.'],
  SERVER_ONLY_PROPERTY: [
    400,
    "The property you're trying to set can only be set from the server auth instance only.",
  ],
  // The server API (query-api/server-api/server-key.ts): Tessera's own, better-auth has no HTTP
  // equivalent (its server-only calls are function calls inside the application).
  SERVER_ONLY_OPERATION: [403, 'This operation is only available to the server API'],
  INVALID_SERVER_KEY: [401, 'Invalid server key'],
  SERVER_KEY_FROM_BROWSER: [403, 'A server key cannot be used from a browser or with a user session'],
  // A command committed, but the read models could not show it within its bound (the projector
  // lags, is stopped or halted on an event it cannot apply). Retrying is safe: commands are decided
  // against the log, not the read models.
  READ_MODELS_BEHIND: [503, 'The service is catching up. Try again in a moment.'],
  INTERNAL_SERVER_ERROR: [500, 'Internal server error'],
  // Organizations (better-auth's organization plugin: its codes and messages; where one route answers
  // a code with another status, the use case says so with errorWithStatus).
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: [403, 'You are not allowed to create a new organization'],
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: [
    403,
    'You have reached the maximum number of organizations',
  ],
  ORGANIZATION_ALREADY_EXISTS: [400, 'Organization already exists'],
  ORGANIZATION_SLUG_ALREADY_TAKEN: [400, 'Organization slug already taken'],
  ORGANIZATION_NOT_FOUND: [400, 'Organization not found'],
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: [400, 'User is not a member of the organization'],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: [403, 'You are not allowed to update this organization'],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: [403, 'You are not allowed to delete this organization'],
  NO_ACTIVE_ORGANIZATION: [400, 'No active organization'],
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: [400, 'User is already a member of this organization'],
  MEMBER_NOT_FOUND: [400, 'Member not found'],
  ROLE_NOT_FOUND: [400, 'Role not found'],
  TEAM_NOT_FOUND: [400, 'Team not found'],
  // better-auth answers this message without a code (add-member naming a team while teams are off).
  TEAMS_NOT_ENABLED: [400, 'Teams are not enabled'],
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: [
    400,
    'You cannot leave the organization as the only owner',
  ],
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: [
    400,
    'You cannot leave the organization without an owner',
  ],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: [401, 'You are not allowed to delete this member'],
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: [
    403,
    'You are not allowed to invite users to this organization',
  ],
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: [400, 'User is already invited to this organization'],
  INVITATION_NOT_FOUND: [400, 'Invitation not found'],
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: [403, 'You are not the recipient of the invitation'],
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION: [
    403,
    'Email verification required before accepting or rejecting invitation',
  ],
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: [
    403,
    'Email verification required to view or list invitations for the session email',
  ],
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: [403, 'You are not allowed to cancel this invitation'],
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION: [
    400,
    'Inviter is no longer a member of the organization',
  ],
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: [
    403,
    'You are not allowed to invite a user with this role',
  ],
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: [400, 'You have reached the maximum number of teams'],
  UNABLE_TO_REMOVE_LAST_TEAM: [400, 'Unable to remove last team'],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: [403, 'You are not allowed to update this member'],
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: [403, 'Organization membership limit reached'],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION: [
    403,
    'You are not allowed to create teams in this organization',
  ],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: [
    403,
    'You are not allowed to delete teams in this organization',
  ],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: [403, 'You are not allowed to update this team'],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: [403, 'You are not allowed to delete this team'],
  INVITATION_LIMIT_REACHED: [403, 'Invitation limit reached'],
  TEAM_MEMBER_LIMIT_REACHED: [403, 'Team member limit reached'],
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: [400, 'User is not a member of the team'],
  YOU_CAN_NOT_ACCESS_THE_MEMBERS_OF_THIS_TEAM: [403, 'You are not allowed to list the members of this team'],
  YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM: [400, 'You do not have an active team'],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER: [403, 'You are not allowed to create a new member'],
  YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER: [403, 'You are not allowed to remove a team member'],
  YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION: [
    403,
    'You are not allowed to access this organization as an owner',
  ],
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: [403, 'You are not a member of this organization'],
  YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE: [403, 'You must be in an organization to create a role'],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE: [403, 'You are not allowed to create a role'],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE: [403, 'You are not allowed to update a role'],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE: [403, 'You are not allowed to delete a role'],
  YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE: [403, 'You are not allowed to read a role'],
  YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE: [403, 'You are not allowed to list a role'],
  YOU_ARE_NOT_ALLOWED_TO_GET_A_ROLE: [403, 'You are not allowed to get a role'],
  TOO_MANY_ROLES: [400, 'This organization has too many roles'],
  INVALID_RESOURCE: [400, 'The provided permission includes an invalid resource'],
  ROLE_NAME_IS_ALREADY_TAKEN: [400, 'That role name is already taken'],
  CANNOT_DELETE_A_PRE_DEFINED_ROLE: [400, 'Cannot delete a pre-defined role'],
  ROLE_IS_ASSIGNED_TO_MEMBERS: [
    400,
    'Cannot delete a role that is assigned to members. Please reassign the members to a different role first',
  ],
  // Tessera's own: better-auth leaves an organization ownerless when its only owner deletes their
  // account; Tessera refuses until ownership has moved (docs/architecture.md, Organizations).
  ONLY_OWNER_OF_AN_ORGANIZATION: [
    400,
    'You are the only owner of an organization. Make another member an owner, or delete the organization, before deleting your account',
  ],
  // Two-factor (better-auth's twoFactor plugin, its codes, statuses and messages).
  OTP_HAS_EXPIRED: [400, 'OTP has expired'],
  TOTP_NOT_ENABLED: [400, 'TOTP not enabled'],
  TOTP_ALREADY_ENABLED: [400, 'TOTP is already enabled'],
  TWO_FACTOR_NOT_ENABLED: [400, "Two factor isn't enabled"],
  BACKUP_CODES_NOT_ENABLED: [400, "Backup codes aren't enabled"],
  INVALID_BACKUP_CODE: [401, 'Invalid backup code'],
  INVALID_CODE: [401, 'Invalid code'],
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: [400, 'Too many attempts. Please request a new code.'],
  ACCOUNT_TEMPORARILY_LOCKED: [
    429,
    'Too many failed verification attempts. Your account is temporarily locked. Please try again later.',
  ],
  INVALID_TWO_FACTOR_COOKIE: [401, 'Invalid two factor cookie'],
  // Tessera's own: `twoFactor.requiredFor` names the admin role and this operator has no second factor.
  TWO_FACTOR_REQUIRED: [403, 'Set up two-factor authentication or a passkey before using the admin API'],
  // Webhooks and the event feed (Tessera's own).
  WEBHOOK_ENDPOINT_NOT_FOUND: [404, 'Webhook endpoint not found'],
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS: [403, 'You are not allowed to manage webhooks'],
  YOU_ARE_NOT_ALLOWED_TO_READ_EVENTS: [403, 'You are not allowed to read these events'],
  INVALID_WEBHOOK_URL: [400, 'Invalid webhook URL'],
  WEBHOOK_URL_MUST_USE_HTTPS: [400, 'Webhook URL must use https'],
  WEBHOOK_ADDRESS_NOT_ALLOWED: [400, 'Webhook URL points to an address that is not allowed'],
  UNKNOWN_EVENT_TYPE: [400, 'Unknown event type'],
  INVALID_CURSOR: [400, 'Invalid cursor'],
  WEBHOOK_MESSAGE_NOT_FOUND: [404, 'Webhook message not found'],
  WEBHOOK_ENDPOINT_DISABLED: [400, 'Webhook endpoint is disabled'],
})

export type AuthErrorCode = Parameters<typeof AUTH_ERRORS.error>[0]

/**
 * The catalogue's error for `code` with another status, where better-auth answers the same failure
 * differently on one route (an unknown deletion token: 404; other unknown tokens: 400).
 */
export const errorWithStatus = (code: AuthErrorCode, status: number): DomainError<AuthErrorCode> =>
  new DomainError(code, status, AUTH_ERRORS[code].message)

/** A body field that breaks a rule its schema does not express: answered like any invalid body. */
export const invalidBodyField = (field: string, reason: string): DomainError<AuthErrorCode> =>
  new DomainError(
    'VALIDATION_ERROR',
    400,
    `${AUTH_ERRORS.VALIDATION_ERROR.message}: [body.${field}] ${reason}`,
  )
