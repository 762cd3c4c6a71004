/// Password rules, checked before hashing on sign-up, reset, change and set, so an oversized
/// password never reaches the hash function: length limits (spec: 8..128 by default), then, when
/// asked, the most common passwords (OWASP ASVS 5.0 V6.2.4; the answer is better-auth's
/// `haveIBeenPwned` one, without its network call).

import { AUTH_ERRORS } from '../errors.js'
import { COMMON_PASSWORDS_TEXT } from './common-passwords.data.js'

export type PasswordLimits = { min: number; max: number }

/** The limits, and whether to refuse the common passwords (config: on by default). */
export type PasswordPolicy = PasswordLimits & { rejectCommon?: boolean }

export const DEFAULT_PASSWORD_LIMITS: PasswordLimits = { min: 8, max: 128 }

let commonPasswords: ReadonlySet<string> | null = null

/**
 * Whether the password is on the shipped list of common passwords. Compared without case (the list
 * is lowercase, and `Password1` is no safer than `password1`); the set is built on first use.
 */
export const isCommonPassword = (password: string): boolean => {
  commonPasswords ??= new Set(COMMON_PASSWORDS_TEXT.split('\n'))
  return commonPasswords.has(password.normalize('NFKC').toLowerCase())
}

export const assertPasswordPolicy = (
  password: string,
  policy: PasswordPolicy = DEFAULT_PASSWORD_LIMITS,
): void => {
  if (password.length < policy.min) throw AUTH_ERRORS.error('PASSWORD_TOO_SHORT')
  if (password.length > policy.max) throw AUTH_ERRORS.error('PASSWORD_TOO_LONG')
  if (policy.rejectCommon && isCommonPassword(password)) throw AUTH_ERRORS.error('PASSWORD_COMPROMISED')
}
