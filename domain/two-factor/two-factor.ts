/// The two-factor aggregate: one person's second factor (an authenticator app's TOTP secret,
/// mailed codes, backup codes), the sign-ins waiting for their second step, and the devices
/// trusted to skip it. Stream: `two-factor-<userId>`. Every rule is in `decide` (two-factor.decide.ts).

import type { Decider } from '../shared/decider.js'
import { decideTwoFactor } from './two-factor.decide.js'
import type { SecondFactorMethod, TwoFactorCommand, TwoFactorEvent } from './two-factor.events.js'
import type { TwoFactor } from './two-factor.state.js'

export type * from './two-factor.events.js'

export const twoFactorStream = (userId: string): string => `two-factor-${userId}`

export { ATTEMPTS_PER_CHALLENGE, LOCKOUT_MS, MAX_FAILED_CODES } from './two-factor.decide.js'

// Bounds on what the state keeps: older entries are dropped first.
const KEPT_CHALLENGES = 5
const KEPT_TRUSTED_DEVICES = 20

/// State

export type { Challenge, MailedCode, TrustedDevice, TwoFactor } from './two-factor.state.js'

export const initialState = (): TwoFactor => ({
  enabled: false,
  totp: null,
  backupCodeHashes: [],
  lastTotpStep: -1,
  mailedCode: null,
  challenges: [],
  failures: 0,
  lockedUntil: null,
  trustedDevices: [],
})

/// Evolve: no rules, never throws

const accepted = (
  state: TwoFactor,
  method: SecondFactorMethod,
  step: number | null,
  codeHash: string | null,
) => ({
  ...state,
  failures: 0,
  lockedUntil: null,
  lastTotpStep: method === 'totp' && step !== null ? Math.max(step, state.lastTotpStep) : state.lastTotpStep,
  mailedCode: method === 'otp' ? null : state.mailedCode,
  backupCodeHashes: state.backupCodeHashes.filter((hash) => hash !== codeHash),
})

const refused = (
  state: TwoFactor,
  data: Extract<TwoFactorEvent, { type: 'two-factor.code-refused' }>['data'],
) => ({
  ...state,
  failures: data.failures,
  lockedUntil: data.lockedUntil ?? state.lockedUntil,
  mailedCode:
    data.method === 'otp' && state.mailedCode
      ? { ...state.mailedCode, attempts: state.mailedCode.attempts + 1 }
      : state.mailedCode,
  challenges: state.challenges.map((challenge) =>
    challenge.challengeHash === data.challengeHash
      ? { ...challenge, attempts: challenge.attempts + 1 }
      : challenge,
  ),
})

export const evolve = (state: TwoFactor, event: TwoFactorEvent): TwoFactor => {
  switch (event.type) {
    case 'two-factor.totp-secret-created':
      return {
        ...state,
        totp: { secret: event.data.secret, verified: false },
        backupCodeHashes: event.data.backupCodeHashes,
      }
    case 'two-factor.enabled':
      return {
        ...state,
        enabled: true,
        totp: state.totp && event.data.method === 'totp' ? { ...state.totp, verified: true } : state.totp,
      }
    case 'two-factor.disabled':
      return { ...initialState(), lastTotpStep: state.lastTotpStep }
    case 'two-factor.backup-codes-generated':
      return { ...state, backupCodeHashes: event.data.codeHashes }
    case 'two-factor.code-accepted':
      return accepted(state, event.data.method, event.data.step, event.data.codeHash)
    case 'two-factor.code-refused':
      return refused(state, event.data)
    case 'two-factor.code-mailed':
      return {
        ...state,
        mailedCode: { codeHash: event.data.codeHash, expiresAt: event.data.expiresAt, attempts: 0 },
      }
    case 'two-factor.challenge-started': {
      const { challengeHash, expiresAt, rememberMe, firstFactor } = event.data
      const challenge = {
        challengeHash,
        expiresAt,
        rememberMe,
        attempts: 0,
        ...(firstFactor ? { firstFactor } : {}),
      }
      return { ...state, challenges: [...state.challenges, challenge].slice(-KEPT_CHALLENGES) }
    }
    case 'two-factor.challenge-passed':
      return {
        ...state,
        challenges: state.challenges.filter(
          ({ challengeHash }) => challengeHash !== event.data.challengeHash,
        ),
      }
    case 'two-factor.device-trusted': {
      const { deviceHash, expiresAt } = event.data
      return {
        ...state,
        trustedDevices: [...state.trustedDevices, { deviceHash, expiresAt }].slice(-KEPT_TRUSTED_DEVICES),
      }
    }
    case 'two-factor.device-trust-renewed': {
      const { previousHash, deviceHash, expiresAt } = event.data
      const others = state.trustedDevices.filter((device) => device.deviceHash !== previousHash)
      return { ...state, trustedDevices: [...others, { deviceHash, expiresAt }].slice(-KEPT_TRUSTED_DEVICES) }
    }
    case 'two-factor.trusted-devices-forgotten':
      return { ...state, trustedDevices: [] }
  }
}

/** The methods a half-signed-in person may use, as better-auth lists them (`twoFactorMethods`). */
export const methodsOf = (state: TwoFactor): ('totp' | 'otp')[] =>
  state.totp?.verified ? ['totp', 'otp'] : ['otp']

export const twoFactorDecider: Decider<TwoFactorCommand, TwoFactorEvent, TwoFactor> = {
  decide: (command, state) => decideTwoFactor(command, state),
  evolve,
  initialState,
}
