/// Every error the API answers, once: the code better-auth 1.7 uses for the same failure (apps and
/// its client switch on it), the HTTP status, and the spec's message.

import { DomainError, defineErrors } from './shared/errors.js'

export const AUTH_ERRORS = defineErrors({
  // Accounts
  INVALID_EMAIL: [400, 'Invalid email'],
  PASSWORD_TOO_SHORT: [400, 'Password too short'],
  PASSWORD_TOO_LONG: [400, 'Password too long'],
  // Tessera's own (better-auth accepts the same password again).
  PASSWORD_SAME_AS_CURRENT: [400, 'New password must be different from the current one'],
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
  // Requests
  VALIDATION_ERROR: [400, 'Invalid body parameters'],
  BODY_MUST_BE_AN_OBJECT: [400, 'Body must be an object'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'Unsupported media type'],
  PAYLOAD_TOO_LARGE: [413, 'Request body is too large'],
  NOT_FOUND: [404, 'Not Found'],
  INVALID_ORIGIN: [403, 'Invalid origin'],
  MISSING_OR_NULL_ORIGIN: [403, 'Missing or null Origin'],
  INVALID_CALLBACK_URL: [403, 'Invalid callbackURL'],
  INVALID_REDIRECT_URL: [403, 'Invalid redirectURL'],
  INVALID_ERROR_CALLBACK_URL: [403, 'Invalid errorCallbackURL'],
  INVALID_NEW_USER_CALLBACK_URL: [403, 'Invalid newUserCallbackURL'],
  TOO_MANY_REQUESTS: [429, 'Too many requests. Please try again later.'],
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
