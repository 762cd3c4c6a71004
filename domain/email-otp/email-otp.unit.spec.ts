import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { constantTimeIncludes } from '../shared/constant-time.js'
import { type EmailOtpEvent, emailOtpDecider, type IssuedCode, refusalOf } from './email-otp.js'

const { given } = specFor(emailOtpDecider)

const code: IssuedCode = {
  requestId: 'r1',
  codeHash: 'aa11',
  length: 6,
  otpType: 'sign-in',
  email: 'ada@example.com',
  newEmail: null,
  expiresAt: '2026-11-01T10:05:00.000Z',
  userId: 'u1',
  addressSubject: 'invitee:x',
}
const issued: EmailOtpEvent = { type: 'email-otp.code-issued', data: code }
const refused = (attempts: number): EmailOtpEvent => ({
  type: 'email-otp.code-refused',
  data: { requestId: 'r1', attempts },
})
const enter = (submittedHash: string, consume = true, now = '2026-11-01T10:01:00.000Z') =>
  ({ type: 'enter-code', submittedHashes: [submittedHash], now, allowedAttempts: 3, consume }) as const

describe('an email one-time code', () => {
  it('is used up by the right code', () => {
    given([issued])
      .when(enter('aa11'))
      .then([{ type: 'email-otp.code-used', data: { requestId: 'r1' } }])
  })

  it('is only checked, not used, when the command does not consume it', () => {
    given([issued]).when(enter('aa11', false)).then([])
  })

  it('counts a wrong code, up to the allowed attempts, then voids the code whatever is entered', () => {
    given([issued])
      .when(enter('bb22'))
      .then([refused(1)])
    given([issued, refused(1), refused(2)])
      .when(enter('bb22'))
      .then([refused(3)])
    given([issued, refused(1), refused(2), refused(3)])
      .when(enter('aa11'))
      .then([{ type: 'email-otp.code-voided', data: { requestId: 'r1', reason: 'too-many-attempts' } }])
  })

  it('is refused once used or voided, and when none was mailed', () => {
    given([issued, { type: 'email-otp.code-used', data: { requestId: 'r1' } }])
      .when(enter('aa11'))
      .thenThrows('INVALID_OTP')
    given([issued, { type: 'email-otp.code-voided', data: { requestId: 'r1', reason: 'expired' } }])
      .when(enter('aa11'))
      .thenThrows('INVALID_OTP')
    given([]).when(enter('aa11')).thenThrows('INVALID_OTP')
  })

  it('is voided once expired, even when right', () => {
    given([issued])
      .when(enter('aa11', true, '2026-11-01T10:05:01.000Z'))
      .then([{ type: 'email-otp.code-voided', data: { requestId: 'r1', reason: 'expired' } }])
  })

  it('starts counting afresh with a new code', () => {
    given([issued, refused(1), refused(2), refused(3), issued])
      .when(enter('aa11'))
      .then([{ type: 'email-otp.code-used', data: { requestId: 'r1' } }])
  })

  it("reads better-auth's refusal from what was recorded", () => {
    expect(refusalOf([refused(1)])).toBe('INVALID_OTP')
    expect(refusalOf([{ type: 'email-otp.code-voided', data: { requestId: 'r', reason: 'expired' } }])).toBe(
      'OTP_EXPIRED',
    )
    expect(
      refusalOf([{ type: 'email-otp.code-voided', data: { requestId: 'r', reason: 'too-many-attempts' } }]),
    ).toBe('TOO_MANY_ATTEMPTS')
    expect(refusalOf([{ type: 'email-otp.code-used', data: { requestId: 'r' } }])).toBeNull()
  })

  it('is used up by a code hashed under a previous secret, after a rotation', () => {
    given([issued])
      .when({ ...enter('cc33'), submittedHashes: ['cc33', 'aa11'] })
      .then([{ type: 'email-otp.code-used', data: { requestId: 'r1' } }])
    given([issued])
      .when({ ...enter('cc33'), submittedHashes: ['cc33', 'dd44'] })
      .then([refused(1)])
  })

  it('compares hashes by content and length, against every candidate', () => {
    expect(constantTimeIncludes(['abc'], 'abc')).toBe(true)
    expect(constantTimeIncludes(['abd'], 'abc')).toBe(false)
    expect(constantTimeIncludes(['abcd', 'ab'], 'abc')).toBe(false)
    expect(constantTimeIncludes(['xyz', 'abc'], 'abc')).toBe(true)
    expect(constantTimeIncludes([], 'abc')).toBe(false)
  })
})
