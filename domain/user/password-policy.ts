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

/**
 * Whether the password is on the shipped list of common passwords. Compared without case (the list
 * is lowercase, and `Password1` is no safer than `password1`).
 *
 * A search for the whole line in the list's one string, rather than a set of its 49,233 entries:
 * the set would hold some 3 MB for the life of the server, the search costs about 0.1 ms, and it
 * runs only when a password is chosen, next to a hash that costs a thousand times more.
 */
export const isCommonPassword = (password: string): boolean => {
  const candidate = password.normalize('NFKC').toLowerCase()
  // A line break would let the candidate span two entries.
  if (candidate.length === 0 || candidate.includes('\n')) return false
  const list = COMMON_PASSWORDS_TEXT
  return (
    list.startsWith(`${candidate}\n`) || list.endsWith(`\n${candidate}`) || list.includes(`\n${candidate}\n`)
  )
}

/**
 * What the policy needs to know of a password, measured by the caller that holds it, so that a
 * decider can judge the policy without ever seeing the password (as it judges a hash's match).
 */
export type PasswordFacts = { length: number; common: boolean }

export const passwordFacts = (password: string, policy: PasswordPolicy = DEFAULT_PASSWORD_LIMITS) => ({
  length: password.length,
  // Searched only when the policy asks, as before.
  common: policy.rejectCommon === true && isCommonPassword(password),
})

/** Throws the first rule the measured password breaks: too short, too long, common. */
export const refuseWeakPassword = (facts: PasswordFacts, policy: PasswordPolicy): void => {
  if (facts.length < policy.min) throw AUTH_ERRORS.error('PASSWORD_TOO_SHORT')
  if (facts.length > policy.max) throw AUTH_ERRORS.error('PASSWORD_TOO_LONG')
  if (policy.rejectCommon && facts.common) throw AUTH_ERRORS.error('PASSWORD_COMPROMISED')
}

export const assertPasswordPolicy = (
  password: string,
  policy: PasswordPolicy = DEFAULT_PASSWORD_LIMITS,
): void => refuseWeakPassword(passwordFacts(password, policy), policy)
