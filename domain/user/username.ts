/// Username rules, as better-auth 1.7's username plugin applies them by default: 3 to 30
/// characters, ASCII letters, digits, `_` and `.` only, checked on the value as typed; stored and
/// compared lowercased (`username`), shown as typed (`displayUsername`). Uniqueness is not checked
/// here: the store claims the normalised value.

import { AUTH_ERRORS } from '../errors.js'
import { DomainError } from '../shared/errors.js'

export type UsernameLimits = { minLength: number; maxLength: number }

export const DEFAULT_USERNAME_LIMITS: UsernameLimits = { minLength: 3, maxLength: 30 }

export type UsernameErrorCode = 'USERNAME_TOO_SHORT' | 'USERNAME_TOO_LONG' | 'INVALID_USERNAME'

/**
 * Where a username is checked. better-auth answers the same rule breaks with 400 on
 * `sign-up/email` and `update-user` ('profile') and with 422 on `/sign-in/username` and
 * `/is-username-available` ('sign-in').
 */
export type UsernameCheckSite = 'profile' | 'sign-in'

// better-auth's defaultUsernameValidator, character for character.
const ALLOWED = /^[a-zA-Z0-9_.]+$/

export const normalizeUsername = (value: string): string => value.toLowerCase()

/**
 * The first rule `value` breaks, in better-auth's order (too short, too long, invalid), or null.
 * Lengths are UTF-16 code units, as better-auth counts them, so '😀' is too short rather than
 * invalid; only ASCII passes, so normalising never changes a valid username's length.
 */
export const validateUsername = (
  value: string,
  limits: Partial<UsernameLimits> = {},
): UsernameErrorCode | null => {
  const { minLength, maxLength } = { ...DEFAULT_USERNAME_LIMITS, ...limits }
  if (value.length < minLength) return 'USERNAME_TOO_SHORT'
  if (value.length > maxLength) return 'USERNAME_TOO_LONG'
  if (!ALLOWED.test(value)) return 'INVALID_USERNAME'
  return null
}

/** The catalogue's error for `code`, with the status better-auth answers at `site`. */
export const usernameError = (code: UsernameErrorCode, site: UsernameCheckSite): DomainError => {
  const { status, message } = AUTH_ERRORS[code]
  return new DomainError(code, site === 'sign-in' ? 422 : status, message)
}

/** Throws the rule `value` breaks, with the status for `site`; returns the normalised username. */
export const parseUsername = (
  value: string,
  site: UsernameCheckSite,
  limits: Partial<UsernameLimits> = {},
): string => {
  const broken = validateUsername(value, limits)
  if (broken) throw usernameError(broken, site)
  return normalizeUsername(value)
}

export type SignUpUsernames = { username: string | null; displayUsername: string | null }

/**
 * The username fields a sign-up stores, derived as better-auth's sign-up hooks derive them: a
 * username is validated (400) and lowercased, and its display form defaults to it as typed; a
 * displayUsername alone becomes the username too when it passes the username rules, and is
 * otherwise kept without a username. An empty displayUsername counts as absent.
 */
export const signUpUsernames = (
  input: { username?: string | undefined; displayUsername?: string | undefined },
  limits: Partial<UsernameLimits> = {},
): SignUpUsernames => {
  const display = input.displayUsername || null
  const typed =
    input.username ?? (display !== null && validateUsername(display, limits) === null ? display : undefined)
  if (typed === undefined) return { username: null, displayUsername: display }
  return { username: parseUsername(typed, 'profile', limits), displayUsername: display ?? typed }
}
