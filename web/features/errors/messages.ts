import { PASSWORD_MAX, PASSWORD_MIN } from '../password/password-rules.js'
import { USERNAME_MAX, USERNAME_MIN } from '../username/username-rules.js'
import { type ApiError, isApiError, NETWORK_ERROR } from './api-error.js'

/// What a person reads for each error code the API answers. Keyed by code only: the server's
/// message text may change wording at any time without breaking the portal.
const MESSAGES: Readonly<Record<string, string>> = {
  INVALID_EMAIL: 'Enter a valid email address, like name@example.com.',
  INVALID_USERNAME_OR_PASSWORD: 'The username or password is not right. Check both and try again.',
  USERNAME_TOO_SHORT: `Use at least ${USERNAME_MIN} characters for a username.`,
  USERNAME_TOO_LONG: `Use at most ${USERNAME_MAX} characters for a username.`,
  INVALID_USERNAME: 'Use only letters, digits, underscores (_) and dots (.) in a username.',
  USERNAME_IS_ALREADY_TAKEN: 'This username is taken. Try another one.',
  INVALID_SESSION_TOKEN: 'That account is no longer signed in on this device.',
  INVALID_EMAIL_OR_PASSWORD: 'The email or password is not right. Check both and try again.',
  EMAIL_NOT_VERIFIED:
    'Your email address is not verified yet. We have just sent you a new link: open it, then sign in.',
  USER_ALREADY_EXISTS: 'An account with this email already exists. Sign in, or use another email.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL:
    'An account with this email already exists. Sign in, or use another email.',
  PASSWORD_TOO_SHORT: `Use at least ${PASSWORD_MIN} characters.`,
  PASSWORD_TOO_LONG: `Use at most ${PASSWORD_MAX} characters.`,
  INVALID_PASSWORD: 'That password is not right.',
  PASSWORD_SAME_AS_CURRENT: 'Choose a new password that is different from your current one.',
  PASSWORD_COMPROMISED:
    'This password is one of the most common ones and appears in leaked password lists. Please choose a different password.',
  EMAIL_IS_THE_SAME: 'That is already your email address.',
  EMAIL_CAN_NOT_BE_UPDATED: 'Your email address can only be changed with “Change email”.',
  CHANGE_EMAIL_DISABLED: 'Changing your email address is not possible at the moment.',
  EMAIL_ALREADY_VERIFIED: 'Your email address is already verified.',
  VERIFICATION_EMAIL_NOT_ENABLED: 'Email verification is not available at the moment.',
  INVALID_TOKEN: 'This link is not valid, or it has already been used.',
  TOKEN_EXPIRED: 'This link has expired.',
  SESSION_EXPIRED: 'For your safety, sign out and sign in again before doing this.',
  SESSION_NOT_FRESH: 'For your safety, sign out and sign in again before doing this.',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'This account has no password yet.',
  FAILED_TO_UNLINK_LAST_ACCOUNT:
    'This is your only way left to sign in, so it stays. Connect another service or set a password first.',
  USER_NOT_FOUND: 'We could not find that account.',
  SESSION_NOT_FOUND: 'That device is already signed out.',
  VALIDATION_ERROR: 'Some of the details are not in the expected form. Check them and try again.',
  MISSING_FIELD: 'A required detail is missing. Check the form and try again.',
  INVALID_CALLBACK_URL: 'This page sent a link the server does not accept. Reload the page and try again.',
  INVALID_REDIRECT_URL: 'This page sent a link the server does not accept. Reload the page and try again.',
  INVALID_ORIGIN: 'The request came from a page the server does not trust. Reload the page and try again.',
  FAILED_TO_CREATE_USER: 'Something went wrong on our side while creating your account. Please try again.',
  FAILED_TO_CREATE_SESSION: 'Something went wrong on our side while signing you in. Please try again.',
  FAILED_TO_UPDATE_USER: 'Something went wrong on our side while saving. Please try again.',
  // An organization's API keys: better-auth's api-key plugin answers these with 403.
  USER_NOT_MEMBER_OF_ORGANIZATION: 'You are not a member of the organization these API keys belong to.',
  INSUFFICIENT_API_KEY_PERMISSIONS:
    'Your role in this organization does not allow managing its API keys. An owner can change that.',
  [NETWORK_ERROR]: 'We could not reach the server. Check your connection and try again.',
  // Administration (operators, and a banned person signing in)
  BANNED_USER: 'This account has been suspended. If you think this is a mistake, contact support.',
  YOU_CANNOT_BAN_YOURSELF: 'You cannot ban your own account.',
  YOU_CANNOT_REMOVE_YOURSELF: 'You cannot remove your own account from here.',
  YOU_CANNOT_IMPERSONATE_ADMINS: 'Other admins cannot be impersonated.',
  NOT_IMPERSONATING: 'You are not acting as anyone right now.',
  ADMIN_SESSION_NOT_FOUND: 'Your own session has ended. Sign in again.',
  // Two-factor
  INVALID_CODE: 'That code is not right, or it was used already. Try the newest one.',
  INVALID_BACKUP_CODE: 'That backup code is not right, or it was used already.',
  OTP_HAS_EXPIRED: 'That code has expired. Ask for a new one.',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'Too many wrong codes. Sign in again to get another try.',
  ACCOUNT_TEMPORARILY_LOCKED: 'Too many wrong codes. Your second step is locked for 15 minutes.',
  INVALID_TWO_FACTOR_COOKIE: 'This sign-in has expired. Sign in again.',
  TOTP_ALREADY_ENABLED: 'An authenticator app is already set up.',
  TWO_FACTOR_REQUIRED: 'Set up two-factor authentication on your Security page before using the console.',
  // Webhooks
  INVALID_WEBHOOK_URL: 'Use a full web address, like https://example.com/webhooks.',
  WEBHOOK_URL_MUST_USE_HTTPS: 'Use an https:// address: events are not sent in the clear.',
  WEBHOOK_ADDRESS_NOT_ALLOWED: 'That address is on a private network, which this service does not send to.',
  UNKNOWN_EVENT_TYPE: 'One of these event types does not exist. Reload the page and pick again.',
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS:
    'Only owners and admins (or operators, for the whole service) manage webhooks.',
  WEBHOOK_MESSAGE_NOT_FOUND: 'This event is no longer among the endpoint’s attempts (they are kept 30 days).',
  WEBHOOK_ENDPOINT_DISABLED: 'This endpoint is disabled. Enable it first, then resend.',
}

const secondsText = (seconds: number): string => (seconds === 1 ? '1 second' : `${seconds} seconds`)

const fallback = (error: ApiError): string => {
  if (error.status === 401) return 'You are signed out. Sign in again to continue.'
  if (error.status === 403) return 'You are not allowed to do this.'
  if (typeof error.status === 'number' && error.status >= 500) {
    return 'Something went wrong on our side. Please try again in a moment.'
  }
  return `Something went wrong (${error.code}). Please try again.`
}

/** The sentence to show for a failed request (or anything a request threw). */
export const messageFor = (error: unknown): string => {
  if (!isApiError(error)) return 'Something went wrong. Please try again.'
  if (error.status === 429) {
    return error.retryAfter === null
      ? 'Too many attempts. Wait a moment and try again.'
      : `Too many attempts. Wait ${secondsText(error.retryAfter)} and try again.`
  }
  return MESSAGES[error.code] ?? fallback(error)
}

/** The message for a code the portal itself detected (client-side checks reuse the API's codes). */
export const messageForCode = (code: string): string => MESSAGES[code] ?? `Something went wrong (${code}).`
