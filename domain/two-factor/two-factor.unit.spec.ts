import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type TwoFactorEvent, twoFactorDecider } from './two-factor.js'

const { given } = specFor(twoFactorDecider)
const NOW = '2030-01-01T00:00:00.000Z'
const LATER = '2030-01-01T00:20:00.000Z'
const userId = 'ada'

const secretCreated: TwoFactorEvent = {
  type: 'two-factor.totp-secret-created',
  data: { userId, secret: 'JBSWY3DPEHPK3PXP', backupCodeHashes: ['b1', 'b2'], createdAt: NOW },
}
const enabled: TwoFactorEvent = {
  type: 'two-factor.enabled',
  data: { userId, method: 'totp', enabledAt: NOW },
}
const accepted = (step: number): TwoFactorEvent => ({
  type: 'two-factor.code-accepted',
  data: { userId, method: 'totp', step, codeHash: null },
})
const challenge: TwoFactorEvent = {
  type: 'two-factor.challenge-started',
  data: {
    userId,
    challengeHash: 'c1',
    expiresAt: '2030-01-01T00:10:00.000Z',
    rememberMe: true,
    firstFactor: ['social'],
  },
}
const refused = (failures: number, lockedUntil: string | null = null): TwoFactorEvent => ({
  type: 'two-factor.code-refused',
  data: { userId, method: 'totp', challengeHash: null, failures, lockedUntil },
})
const check = { userId, now: NOW, challenge: null, trust: null }
const signInCheck = { ...check, challenge: { challengeHash: 'c1' } }
const totp = (matchedStep: number | null, over = {}) => ({
  type: 'verify-totp' as const,
  matchedStep,
  ...check,
  ...over,
})
const beginSignIn = (trustedDeviceHash: string | null = null) => ({
  type: 'begin-sign-in' as const,
  userId,
  challengeHash: 'c2',
  expiresAt: LATER,
  rememberMe: false,
  firstFactor: ['pwd'],
  trustedDeviceHash,
  renewedTrust: { deviceHash: 'd2', expiresAt: LATER },
  now: NOW,
})

describe('the two-factor aggregate', () => {
  it('turns on with the first good authenticator code, not when the secret is made', () => {
    given([secretCreated])
      .when(totp(100))
      .then([enabled, accepted(100)])
    given([secretCreated]).when(beginSignIn()).then([])
  })

  it('asks for the password to turn on, and refuses a second authenticator once one is confirmed', () => {
    const enable = { type: 'enable-totp' as const, userId, secret: 'S', backupCodeHashes: [], now: NOW }
    given([])
      .when({ ...enable, passwordMatches: false })
      .thenThrows('INVALID_PASSWORD')
    given([secretCreated, enabled])
      .when({ ...enable, passwordMatches: true })
      .thenThrows('TOTP_ALREADY_ENABLED')
  })

  it('accepts a code once: the same step again, or an older one, is refused and counted', () => {
    given([secretCreated, enabled, accepted(100)])
      .when(totp(100))
      .then([refused(1)])
    given([secretCreated, enabled, accepted(100)])
      .when(totp(99))
      .then([refused(1)])
    given([secretCreated, enabled, accepted(100)])
      .when(totp(101))
      .then([accepted(101)])
  })

  it('locks the second step for 15 minutes at the tenth wrong code in a row', () => {
    const nine = Array.from({ length: 9 }, (_, i) => refused(i + 1))
    given([secretCreated, enabled, ...nine])
      .when(totp(null))
      .then([refused(10, '2030-01-01T00:15:00.000Z')])
    given([secretCreated, enabled, ...nine, refused(10, '2030-01-01T00:15:00.000Z')])
      .when(totp(200))
      .thenThrows('ACCOUNT_TEMPORARILY_LOCKED')
    // After the lock, a good code is accepted and the count starts again.
    given([secretCreated, enabled, ...nine, refused(10, '2030-01-01T00:15:00.000Z')])
      .when(totp(200, { now: LATER }))
      .then([accepted(200)])
  })

  it('starts a challenge at sign-in when on, and lets a trusted device through (renewing its trust)', () => {
    given([secretCreated, enabled])
      .when(beginSignIn())
      .then([
        {
          type: 'two-factor.challenge-started',
          data: { userId, challengeHash: 'c2', expiresAt: LATER, rememberMe: false, firstFactor: ['pwd'] },
        },
      ])
    const trusted: TwoFactorEvent = {
      type: 'two-factor.device-trusted',
      data: { userId, deviceHash: 'd1', expiresAt: LATER },
    }
    given([secretCreated, enabled, trusted])
      .when(beginSignIn('d1'))
      .then([
        {
          type: 'two-factor.device-trust-renewed',
          data: { userId, previousHash: 'd1', deviceHash: 'd2', expiresAt: LATER },
        },
      ])
    const forgotten: TwoFactorEvent = {
      type: 'two-factor.trusted-devices-forgotten',
      data: { userId, reason: 'password-changed' },
    }
    given([secretCreated, enabled, trusted, forgotten])
      .when(beginSignIn('d1'))
      .then([
        {
          type: 'two-factor.challenge-started',
          data: { userId, challengeHash: 'c2', expiresAt: LATER, rememberMe: false, firstFactor: ['pwd'] },
        },
      ])
  })

  it('finishes a sign-in with a good code (carrying how the first factor passed), trusting the device when asked; refuses an unknown or spent challenge', () => {
    const trust = { deviceHash: 'd9', expiresAt: LATER }
    given([secretCreated, enabled, challenge])
      .when(totp(100, { challenge: { challengeHash: 'c1' }, trust }))
      .then([
        accepted(100),
        {
          type: 'two-factor.challenge-passed',
          data: { userId, challengeHash: 'c1', method: 'totp', rememberMe: true, firstFactor: ['social'] },
        },
        { type: 'two-factor.device-trusted', data: { userId, ...trust } },
      ])
    given([secretCreated, enabled, challenge])
      .when(totp(100, { challenge: { challengeHash: 'other' } }))
      .thenThrows('INVALID_TWO_FACTOR_COOKIE')
    const passed: TwoFactorEvent = {
      type: 'two-factor.challenge-passed',
      data: { userId, challengeHash: 'c1', method: 'totp', rememberMe: true },
    }
    given([secretCreated, enabled, challenge, passed])
      .when(totp(101, { challenge: { challengeHash: 'c1' } }))
      .thenThrows('INVALID_TWO_FACTOR_COOKIE')
  })

  it('gives one challenge five wrong codes, then asks for a new sign-in', () => {
    const wrong = (failures: number): TwoFactorEvent => ({
      type: 'two-factor.code-refused',
      data: { userId, method: 'totp', challengeHash: 'c1', failures, lockedUntil: null },
    })
    given([secretCreated, enabled, challenge, ...[1, 2, 3, 4, 5].map(wrong)])
      .when(totp(100, signInCheck))
      .thenThrows('TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE')
  })

  it('uses each backup code once', () => {
    const use = { type: 'verify-backup-code' as const, codeHash: 'b1', ...check }
    const used: TwoFactorEvent = {
      type: 'two-factor.code-accepted',
      data: { userId, method: 'backup-code', step: null, codeHash: 'b1' },
    }
    given([secretCreated, enabled]).when(use).then([used])
    given([secretCreated, enabled, used])
      .when(use)
      .then([
        {
          type: 'two-factor.code-refused',
          data: { userId, method: 'backup-code', challengeHash: null, failures: 1, lockedUntil: null },
        },
      ])
  })

  it('accepts a mailed code once, before it expires', () => {
    const mailed: TwoFactorEvent = {
      type: 'two-factor.code-mailed',
      data: { userId, requestId: 'r', codeHash: 'h', expiresAt: '2030-01-01T00:03:00.000Z' },
    }
    const otp = { type: 'verify-otp' as const, codeHashes: ['h'], ...check }
    const ok: TwoFactorEvent = {
      type: 'two-factor.code-accepted',
      data: { userId, method: 'otp', step: null, codeHash: null },
    }
    given([secretCreated, enabled, mailed]).when(otp).then([ok])
    given([secretCreated, enabled, mailed, ok]).when(otp).thenThrows('OTP_HAS_EXPIRED')
    given([secretCreated, enabled, mailed])
      .when({ ...otp, now: LATER })
      .thenThrows('OTP_HAS_EXPIRED')
  })

  it('accepts a mailed code hashed under a previous secret, and refuses one no secret gives', () => {
    const mailed: TwoFactorEvent = {
      type: 'two-factor.code-mailed',
      data: { userId, requestId: 'r', codeHash: 'old', expiresAt: '2030-01-01T00:03:00.000Z' },
    }
    const otp = { type: 'verify-otp' as const, codeHashes: ['new', 'old'], ...check }
    given([secretCreated, enabled, mailed])
      .when(otp)
      .then([
        { type: 'two-factor.code-accepted', data: { userId, method: 'otp', step: null, codeHash: null } },
      ])
    given([secretCreated, enabled, mailed])
      .when({ ...otp, codeHashes: ['new', 'other'] })
      .then([
        {
          type: 'two-factor.code-refused',
          data: { userId, method: 'otp', challengeHash: null, failures: 1, lockedUntil: null },
        },
      ])
  })

  it('turns off with the password, and then no sign-in needs a second step', () => {
    const disable = { type: 'disable' as const, userId, now: NOW }
    given([secretCreated, enabled])
      .when({ ...disable, passwordMatches: false })
      .thenThrows('INVALID_PASSWORD')
    const disabled: TwoFactorEvent = { type: 'two-factor.disabled', data: { userId, disabledAt: NOW } }
    given([secretCreated, enabled])
      .when({ ...disable, passwordMatches: true })
      .then([disabled])
    given([secretCreated, enabled, disabled]).when(beginSignIn()).then([])
  })
})
