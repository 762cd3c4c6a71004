import { messageForCode } from '../errors/messages.js'
import { passwordProblem } from '../password/password-rules.js'

/// Client-side checks run before a request: they catch slips early and speak with the same
/// words as the API's codes. The server stays the judge; these only mirror its simplest rules.

export const checkRequired = (value: string, what: string): string | null =>
  value.trim() === '' ? `Enter ${what}.` : null

// Deliberately loose: one '@' with something on both sides. The server's check is authoritative.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/

export const checkEmail = (email: string): string | null => {
  if (email.trim() === '') return 'Enter your email address.'
  return EMAIL_SHAPE.test(email.trim()) ? null : messageForCode('INVALID_EMAIL')
}

export const checkNewPassword = (password: string): string | null => {
  const problem = passwordProblem(password)
  return problem === null ? null : messageForCode(problem)
}
