/// The email one-time code aggregate (better-auth's emailOTP plugin): the code last mailed to one
/// address for one purpose. Its stream is named by a keyed hash of (purpose, address), so a new code
/// replaces the last one, and a wrong guess, a use and a new code race on one expected version. The
/// code itself is never stored: only an HMAC of it under AUTH_SECRET (a bare SHA-256 of six digits
/// is reversed in a second from a leaked log). A code is void once used, once expired, or after
/// `allowedAttempts` wrong guesses; the next guess then answers TOO_MANY_ATTEMPTS (403) once.

import { AUTH_ERRORS } from '../errors.js'
import { constantTimeIncludes } from '../shared/constant-time.js'
import type { Decider } from '../shared/decider.js'

export const OTP_TYPES = ['sign-in', 'email-verification', 'forget-password', 'change-email'] as const
export type OtpType = (typeof OTP_TYPES)[number]

/// Events

export type IssuedCode = {
  /** Derives the code in the mail reactor (infra/crypto/derived-tokens.ts); not a secret alone. */
  requestId: string
  /** The code's HMAC under the secret current when it was issued (infra/crypto/code-hash.ts). */
  codeHash: string
  /** Digits in the code (emailOTP.otpLength when it was issued). */
  length: number
  otpType: OtpType
  /** Where the code goes: the address, or for `change-email` the new one (`newEmail`). */
  email: string
  newEmail: string | null
  expiresAt: string
  /** The account the address had when the code was asked for, if any: the events' subject. */
  userId: string | null
  /** The address's own key id (an HMAC of it), the subject when there was no account. */
  addressSubject: string
}

export type VoidReason = 'expired' | 'too-many-attempts'

export type EmailOtpEvent =
  | { type: 'email-otp.code-issued'; data: IssuedCode }
  | { type: 'email-otp.code-refused'; data: { requestId: string; attempts: number } }
  | { type: 'email-otp.code-used'; data: { requestId: string } }
  | { type: 'email-otp.code-voided'; data: { requestId: string; reason: VoidReason } }

/// Commands

export type EmailOtpCommand =
  | ({ type: 'issue-code' } & IssuedCode)
  /**
   * A code was entered. `consume`: a sign-in, verification or reset uses it up; the check route
   * only asks whether it is right (a wrong guess counts all the same).
   */
  | {
      type: 'enter-code'
      /** The entered code hashed under each accepted secret: one made before a rotation still matches. */
      submittedHashes: readonly string[]
      now: string
      allowedAttempts: number
      consume: boolean
    }

/// State

export type EmailOtp =
  | { status: 'none' }
  | { status: 'live'; code: IssuedCode; attempts: number }
  | { status: 'void'; code: IssuedCode }

export const initialState = (): EmailOtp => ({ status: 'none' })

/// Evolve: no rules, never throws

export const evolve = (state: EmailOtp, event: EmailOtpEvent): EmailOtp => {
  switch (event.type) {
    case 'email-otp.code-issued':
      return { status: 'live', code: event.data, attempts: 0 }
    case 'email-otp.code-refused':
      return state.status === 'live' ? { ...state, attempts: event.data.attempts } : state
    case 'email-otp.code-used':
    case 'email-otp.code-voided':
      return state.status === 'live' ? { status: 'void', code: state.code } : state
    default:
      return state
  }
}

/// Decide

export const decide = (command: EmailOtpCommand, state: EmailOtp): EmailOtpEvent[] => {
  switch (command.type) {
    case 'issue-code': {
      const { type: _type, ...code } = command
      return [{ type: 'email-otp.code-issued', data: code }]
    }
    case 'enter-code':
      return enterCode(command, state)
    default: {
      const unreachable: never = command
      throw unreachable
    }
  }
}

const enterCode = (command: Extract<EmailOtpCommand, { type: 'enter-code' }>, state: EmailOtp) => {
  // No code, or one already used or voided: as better-auth, whose record is gone by then.
  if (state.status !== 'live') throw AUTH_ERRORS.error('INVALID_OTP')
  const { requestId } = state.code
  if (Date.parse(state.code.expiresAt) < Date.parse(command.now)) return [voided(requestId, 'expired')]
  if (state.attempts >= command.allowedAttempts) return [voided(requestId, 'too-many-attempts')]
  if (!constantTimeIncludes(command.submittedHashes, state.code.codeHash))
    return [refused(requestId, state.attempts + 1)]
  return command.consume ? [used(requestId)] : []
}

const voided = (requestId: string, reason: VoidReason): EmailOtpEvent => ({
  type: 'email-otp.code-voided',
  data: { requestId, reason },
})
const refused = (requestId: string, attempts: number): EmailOtpEvent => ({
  type: 'email-otp.code-refused',
  data: { requestId, attempts },
})
const used = (requestId: string): EmailOtpEvent => ({ type: 'email-otp.code-used', data: { requestId } })

/**
 * What an entered code was answered, from the events its command recorded: a wrong guess and a void
 * are recorded (they change the count or end the code) and then refused, so the refusal is read
 * here rather than thrown by `decide`, which would record nothing.
 */
export const refusalOf = (
  events: readonly EmailOtpEvent[],
): 'INVALID_OTP' | 'OTP_EXPIRED' | 'TOO_MANY_ATTEMPTS' | null => {
  for (const event of events) {
    if (event.type === 'email-otp.code-refused') return 'INVALID_OTP'
    if (event.type === 'email-otp.code-voided')
      return event.data.reason === 'expired' ? 'OTP_EXPIRED' : 'TOO_MANY_ATTEMPTS'
  }
  return null
}

export const emailOtpDecider: Decider<EmailOtpCommand, EmailOtpEvent, EmailOtp> = {
  decide,
  evolve,
  initialState,
}

/** `key`: a keyed hash of the purpose and the address (made outside the domain). */
export const emailOtpStream = (key: string): string => `email-otp-${key}`
