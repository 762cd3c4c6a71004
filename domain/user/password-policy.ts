/// Password length limits (spec: 8..128 by default). Checked before hashing on sign-up, reset,
/// change and set, so an oversized password never reaches the hash function.

import { AUTH_ERRORS } from '../errors.js'

export type PasswordLimits = { min: number; max: number }

export const DEFAULT_PASSWORD_LIMITS: PasswordLimits = { min: 8, max: 128 }

export const assertPasswordPolicy = (
  password: string,
  limits: PasswordLimits = DEFAULT_PASSWORD_LIMITS,
): void => {
  if (password.length < limits.min) throw AUTH_ERRORS.error('PASSWORD_TOO_SHORT')
  if (password.length > limits.max) throw AUTH_ERRORS.error('PASSWORD_TOO_LONG')
}
