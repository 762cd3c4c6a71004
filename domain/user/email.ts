/// Email addresses: trimmed, lowercased before any lookup or creation, and checked for a plausible
/// shape (one @, a dotted domain, no spaces), the same acceptance as a standard email validator.

import { AUTH_ERRORS } from '../errors.js'

const MAX_EMAIL_LENGTH = 254
const EMAIL_SHAPE =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/

export const normalizeEmail = (raw: string): string => raw.trim().toLowerCase()

export const isValidEmail = (raw: string): boolean => {
  const email = raw.trim()
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_SHAPE.test(email)
}

/** The normalised address, or INVALID_EMAIL. */
export const parseEmail = (raw: string): string => {
  if (!isValidEmail(raw)) throw AUTH_ERRORS.error('INVALID_EMAIL')
  return normalizeEmail(raw)
}
