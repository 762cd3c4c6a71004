/// The second-step gate: every sign-in by a first factor (password by email or username, a mailed
/// link or code, a social account) passes here instead of starting a session itself. A person
/// whose second factor is on gets a challenge (the half-signed-in state: no session) unless this
/// device is trusted; everyone else gets their session. A passkey is both factors at once.

import { type FirstFactor, firstFactorAmr } from '../../domain/session/amr.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { methodsOf } from '../../domain/two-factor/two-factor.js'
import { sessionToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { refuseBannedUser } from '../shared/refuse-banned.js'
import { runTwoFactorCommand } from './run-two-factor.js'

export type { FirstFactor }

export type SignInStart = {
  userId: string
  rememberMe: boolean
  factor: FirstFactor
  /** The token of this device's trust cookie, when it has one for this person. */
  trustedDeviceToken: string | null
}

export type SignInOutcome =
  | { kind: 'session'; session: StartedSession; renewedTrustToken: string | null }
  | { kind: 'second-step'; challengeToken: string; methods: ('totp' | 'otp')[] }

export const startSignIn = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: SignInStart,
): Promise<SignInOutcome> => {
  const { userId, rememberMe } = input
  if (input.factor === 'passkey') return sessionOutcome(ctx, origin, input, null)
  const now = ctx.clock()
  const { twoFactor } = ctx.config
  const challengeToken = sessionToken()
  const renewedTrustToken = sessionToken()
  const { events, state } = await runTwoFactorCommand(ctx, origin, userId, {
    type: 'begin-sign-in',
    userId,
    challengeHash: sha256Hex(challengeToken),
    expiresAt: new Date(now.getTime() + twoFactor.twoFactorCookieMaxAge * 1000).toISOString(),
    rememberMe,
    firstFactor: firstFactorAmr(input.factor),
    trustedDeviceHash: input.trustedDeviceToken === null ? null : sha256Hex(input.trustedDeviceToken),
    renewedTrust: {
      deviceHash: sha256Hex(renewedTrustToken),
      expiresAt: new Date(now.getTime() + twoFactor.trustDeviceMaxAge * 1000).toISOString(),
    },
    now: now.toISOString(),
  })
  if (events.some((event) => event.type === 'two-factor.challenge-started')) {
    // A banned person is refused now, not after their code: the session decider, asked to admit
    // them (`admit-person`), refuses as a session start would.
    await refuseBannedUser(ctx, origin, userId)
    return { kind: 'second-step', challengeToken, methods: methodsOf(state) }
  }
  const renewed = events.some((event) => event.type === 'two-factor.device-trust-renewed')
  return sessionOutcome(ctx, origin, input, renewed ? renewedTrustToken : null)
}

const sessionOutcome = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { userId, rememberMe, factor }: SignInStart,
  renewedTrustToken: string | null,
): Promise<SignInOutcome> => ({
  kind: 'session',
  session: await startSession(ctx, origin, { userId, rememberMe, amr: firstFactorAmr(factor) }),
  renewedTrustToken,
})
