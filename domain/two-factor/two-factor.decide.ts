/// Every rule of the second factor. Codes are checked by the edge against the sealed secret (the
/// decider receives which time step matched, or the hash of what was typed); here they are
/// accepted once, counted when wrong, and locked out past better-auth's budget.

import { AUTH_ERRORS } from '../errors.js'
import { constantTimeEqual, constantTimeIncludes } from '../shared/constant-time.js'
import type {
  ChallengeRef,
  NewTrust,
  SecondFactorMethod,
  TwoFactorCommand,
  TwoFactorEvent,
} from './two-factor.events.js'
import type { Challenge, TwoFactor } from './two-factor.state.js'

/** better-auth's lockout: 10 wrong codes in a row lock the second step for 15 minutes. */
export const MAX_FAILED_CODES = 10
export const LOCKOUT_MS = 15 * 60 * 1000
/** Wrong codes one half-finished sign-in (or one mailed code) may take before it must start over. */
export const ATTEMPTS_PER_CHALLENGE = 5

type Command<Type extends TwoFactorCommand['type']> = Extract<TwoFactorCommand, { type: Type }>

export const decideTwoFactor = (command: TwoFactorCommand, state: TwoFactor): TwoFactorEvent[] => {
  switch (command.type) {
    case 'enable-totp':
      return enableTotp(command, state)
    case 'enable-otp':
      requirePassword(command.passwordMatches)
      return state.enabled
        ? []
        : [{ type: 'two-factor.enabled', data: enabled(command.userId, 'otp', command.now) }]
    case 'disable':
      requirePassword(command.passwordMatches)
      if (!state.enabled && !state.totp) return []
      return [{ type: 'two-factor.disabled', data: { userId: command.userId, disabledAt: command.now } }]
    case 'generate-backup-codes':
      if (!state.enabled) throw AUTH_ERRORS.error('TWO_FACTOR_NOT_ENABLED')
      requirePassword(command.passwordMatches)
      return [
        {
          type: 'two-factor.backup-codes-generated',
          data: { userId: command.userId, codeHashes: command.codeHashes },
        },
      ]
    case 'verify-totp':
      return verifyTotp(command, state)
    case 'verify-otp':
      return verifyOtp(command, state)
    case 'verify-backup-code':
      return verifyBackupCode(command, state)
    case 'send-otp':
      return sendOtp(command, state)
    case 'begin-sign-in':
      return beginSignIn(command, state)
    case 'forget-trusted-devices':
      if (state.trustedDevices.length === 0) return []
      return [
        {
          type: 'two-factor.trusted-devices-forgotten',
          data: { userId: command.userId, reason: command.reason },
        },
      ]
    default: {
      const unreachable: never = command
      throw unreachable
    }
  }
}

const requirePassword = (matches: boolean) => {
  if (!matches) throw AUTH_ERRORS.error('INVALID_PASSWORD')
}

const enabled = (userId: string, method: 'totp' | 'otp', enabledAt: string) => ({ userId, method, enabledAt })

const enableTotp = (command: Command<'enable-totp'>, state: TwoFactor): TwoFactorEvent[] => {
  requirePassword(command.passwordMatches)
  if (state.totp?.verified) throw AUTH_ERRORS.error('TOTP_ALREADY_ENABLED')
  const { userId, secret, backupCodeHashes, now } = command
  return [
    { type: 'two-factor.totp-secret-created', data: { userId, secret, backupCodeHashes, createdAt: now } },
  ]
}

/// Checking a code

/** The sign-in a code answers must be live, within its attempts, and the person not locked out. */
const checkAttempt = (
  check: { now: string; challenge: ChallengeRef | null },
  state: TwoFactor,
): Challenge | null => {
  const challenge = check.challenge ? liveChallenge(state, check.challenge.challengeHash, check.now) : null
  if (check.challenge && !challenge) throw AUTH_ERRORS.error('INVALID_TWO_FACTOR_COOKIE')
  // Locked for everyone who tries, signed in or not: the lock is about the person, not a session.
  if (state.lockedUntil !== null && state.lockedUntil > check.now)
    throw AUTH_ERRORS.error('ACCOUNT_TEMPORARILY_LOCKED')
  if (challenge && challenge.attempts >= ATTEMPTS_PER_CHALLENGE)
    throw AUTH_ERRORS.error('TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE')
  return challenge
}

const liveChallenge = (state: TwoFactor, challengeHash: string, now: string): Challenge | null =>
  state.challenges.find((c) => constantTimeEqual(c.challengeHash, challengeHash) && c.expiresAt > now) ?? null

/** A wrong code: counted toward the person's budget; the one that spends it locks the second step. */
const refusal = (
  userId: string,
  method: SecondFactorMethod,
  check: { now: string; challenge: ChallengeRef | null },
  state: TwoFactor,
): TwoFactorEvent => {
  const failures = state.failures + 1
  const lockedUntil =
    failures >= MAX_FAILED_CODES ? new Date(Date.parse(check.now) + LOCKOUT_MS).toISOString() : null
  const challengeHash = check.challenge?.challengeHash ?? null
  return { type: 'two-factor.code-refused', data: { userId, method, challengeHash, failures, lockedUntil } }
}

/** What a good code leads to: the sign-in passed (and the device trusted, if asked). */
const success = (
  userId: string,
  method: SecondFactorMethod,
  challenge: Challenge | null,
  trust: NewTrust | null,
  acceptedEvent: TwoFactorEvent,
): TwoFactorEvent[] => {
  if (!challenge) return [acceptedEvent]
  const { challengeHash, rememberMe, firstFactor } = challenge
  const passed = { userId, challengeHash, method, rememberMe, ...(firstFactor ? { firstFactor } : {}) }
  return [
    acceptedEvent,
    { type: 'two-factor.challenge-passed', data: passed },
    ...(trust ? [{ type: 'two-factor.device-trusted' as const, data: { userId, ...trust } }] : []),
  ]
}

const verifyTotp = (command: Command<'verify-totp'>, state: TwoFactor): TwoFactorEvent[] => {
  if (!state.totp) throw AUTH_ERRORS.error('TOTP_NOT_ENABLED')
  // A sign-in cannot be finished with a secret its owner never confirmed.
  if (command.challenge && !state.totp.verified) throw AUTH_ERRORS.error('TOTP_NOT_ENABLED')
  const challenge = checkAttempt(command, state)
  const { userId, matchedStep } = command
  // A step at or before the last one accepted is a replay: the same code, or an older one.
  if (matchedStep === null || matchedStep <= state.lastTotpStep)
    return [refusal(userId, 'totp', command, state)]
  const acceptedEvent: TwoFactorEvent = {
    type: 'two-factor.code-accepted',
    data: { userId, method: 'totp', step: matchedStep, codeHash: null },
  }
  const turnsOn: TwoFactorEvent[] = state.totp.verified
    ? []
    : [{ type: 'two-factor.enabled', data: enabled(userId, 'totp', command.now) }]
  return [...turnsOn, ...success(userId, 'totp', challenge, command.trust, acceptedEvent)]
}

const verifyOtp = (command: Command<'verify-otp'>, state: TwoFactor): TwoFactorEvent[] => {
  const challenge = checkAttempt(command, state)
  const code = state.mailedCode
  if (!code || code.expiresAt <= command.now) throw AUTH_ERRORS.error('OTP_HAS_EXPIRED')
  if (code.attempts >= ATTEMPTS_PER_CHALLENGE) throw AUTH_ERRORS.error('TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE')
  const { userId } = command
  if (!constantTimeIncludes(command.codeHashes, code.codeHash))
    return [refusal(userId, 'otp', command, state)]
  const acceptedEvent: TwoFactorEvent = {
    type: 'two-factor.code-accepted',
    data: { userId, method: 'otp', step: null, codeHash: null },
  }
  // A signed-in person who confirms a mailed code turns mailed codes on, as better-auth does.
  const turnsOn: TwoFactorEvent[] =
    state.enabled || command.challenge
      ? []
      : [{ type: 'two-factor.enabled', data: enabled(userId, 'otp', command.now) }]
  return [...turnsOn, ...success(userId, 'otp', challenge, command.trust, acceptedEvent)]
}

const verifyBackupCode = (command: Command<'verify-backup-code'>, state: TwoFactor): TwoFactorEvent[] => {
  if (!state.totp && !state.enabled) throw AUTH_ERRORS.error('BACKUP_CODES_NOT_ENABLED')
  const challenge = checkAttempt(command, state)
  const { userId, codeHash } = command
  const match = state.backupCodeHashes.find((hash) => constantTimeEqual(hash, codeHash))
  if (match === undefined) return [refusal(userId, 'backup-code', command, state)]
  const acceptedEvent: TwoFactorEvent = {
    type: 'two-factor.code-accepted',
    data: { userId, method: 'backup-code', step: null, codeHash: match },
  }
  return success(userId, 'backup-code', challenge, command.trust, acceptedEvent)
}

const sendOtp = (command: Command<'send-otp'>, state: TwoFactor): TwoFactorEvent[] => {
  if (command.challenge && !liveChallenge(state, command.challenge.challengeHash, command.now))
    throw AUTH_ERRORS.error('INVALID_TWO_FACTOR_COOKIE')
  const { userId, requestId, codeHash, expiresAt } = command
  return [{ type: 'two-factor.code-mailed', data: { userId, requestId, codeHash, expiresAt } }]
}

/// Signing in

const beginSignIn = (command: Command<'begin-sign-in'>, state: TwoFactor): TwoFactorEvent[] => {
  if (!state.enabled) return []
  const { userId, trustedDeviceHash, now } = command
  const trusted =
    trustedDeviceHash !== null &&
    state.trustedDevices.some((d) => constantTimeEqual(d.deviceHash, trustedDeviceHash) && d.expiresAt > now)
  if (trusted) {
    const { deviceHash, expiresAt } = command.renewedTrust
    return [
      {
        type: 'two-factor.device-trust-renewed',
        data: { userId, previousHash: trustedDeviceHash, deviceHash, expiresAt },
      },
    ]
  }
  const { challengeHash, expiresAt, rememberMe, firstFactor } = command
  return [
    {
      type: 'two-factor.challenge-started',
      data: { userId, challengeHash, expiresAt, rememberMe, firstFactor },
    },
  ]
}

/** The refusal a decision recorded instead of throwing (a wrong code is kept, then answered). */
export const refusalIn = (events: readonly TwoFactorEvent[]) => {
  const refused = events.find((event) => event.type === 'two-factor.code-refused')
  if (refused?.type !== 'two-factor.code-refused') return null
  return refused.data.method === 'backup-code'
    ? AUTH_ERRORS.error('INVALID_BACKUP_CODE')
    : AUTH_ERRORS.error('INVALID_CODE')
}

/** Showing the authenticator URI again records nothing, but has its rules all the same. */
export const assertMayShowTotpUri = (state: TwoFactor, passwordMatches: boolean): string => {
  if (!state.totp?.secret) throw AUTH_ERRORS.error('TOTP_NOT_ENABLED')
  requirePassword(passwordMatches)
  return state.totp.secret
}
