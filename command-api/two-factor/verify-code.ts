/// Checking a second-factor code, for a signed-in person managing their factor or for a sign-in
/// waiting on its second step (the two-factor cookie). The edge works out what the code means
/// (which TOTP step it matches under the sealed secret, or its hash); the decider accepts it once,
/// counts it when wrong, and locks the second step past the budget. A wrong code is recorded, then
/// refused. A passed sign-in gets its session here.

import { secondStepAmr } from '../../domain/session/amr.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { refusalIn } from '../../domain/two-factor/two-factor.decide.js'
import type {
  ChallengeRef,
  NewTrust,
  TwoFactor,
  TwoFactorCommand,
} from '../../domain/two-factor/two-factor.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import { acceptedSecrets } from '../../infra/config/config.js'
import { newRequestId } from '../../infra/crypto/derived-tokens.js'
import { sessionToken, sha256Hex } from '../../infra/crypto/tokens.js'
import { base32Decode, matchingStep } from '../../infra/crypto/totp.js'
import { backupCodeHash, mailedCode, mailedCodeHash } from '../../infra/crypto/two-factor-codes.js'
import type { CommandContext } from '../context.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { passAndStartSession } from './pass-and-sign-in.js'
import { loadKeptTwoFactor, runTwoFactorCommand } from './run-two-factor.js'

/** Who presents the code: a live session, or the sign-in the two-factor cookie names. */
export type CodeCaller =
  | { kind: 'session'; userId: string }
  | { kind: 'challenge'; userId: string; token: string }

/** `startsSession` false: a backup code checked with better-auth's `disableSession` (no session). */
export type CodeInput = {
  method: 'totp' | 'otp' | 'backup-code'
  code: string
  trustDevice: boolean
  startsSession: boolean
}

/**
 * For a finished sign-in: its session, the trust cookie's token when the device is now trusted, and
 * the person's row when it was read on the way (the answer shows it), else null.
 */
export type CodeOutcome = {
  session: StartedSession | null
  trustToken: string | null
  user: KnownUser | null
}

const challengeOf = (caller: CodeCaller): ChallengeRef | null =>
  caller.kind === 'challenge' ? { challengeHash: sha256Hex(caller.token) } : null

/** Only a sign-in can trust its device: a signed-in person has passed that point already. */
const trustFor = (ctx: CommandContext, challenge: ChallengeRef | null, input: CodeInput, now: Date) => {
  const trustToken = challenge && input.trustDevice ? sessionToken() : null
  const trust: NewTrust | null = trustToken
    ? {
        deviceHash: sha256Hex(trustToken),
        expiresAt: new Date(now.getTime() + ctx.config.twoFactor.trustDeviceMaxAge * 1000).toISOString(),
      }
    : null
  return { trustToken, trust }
}

export const verifyCode = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: CodeCaller,
  input: CodeInput,
): Promise<CodeOutcome> => {
  const now = ctx.clock()
  const challenge = challengeOf(caller)
  const { trustToken, trust } = trustFor(ctx, challenge, input, now)
  const check = { userId: caller.userId, now: now.toISOString(), challenge, trust }
  const signsIn = challenge !== null && input.startsSession
  // A sign-in reads whether the person may have a session (and the row its answer shows) beside
  // the stream, not after it.
  const [loaded, standing] = await Promise.all([
    loadKeptTwoFactor(ctx, caller.userId),
    signsIn ? ctx.lookups.users.standingOf(caller.userId) : undefined,
  ])
  const command = commandFor(ctx, loaded.state, input, check, now)
  // A sign-in whose code passes: the acceptance and the session in one append.
  if (signsIn) {
    const session = await passAndStartSession(ctx, origin, caller.userId, command, { loaded, standing })
    if (session) return { session, trustToken, user: standing?.user ?? null }
  }
  const session = await decideThenStart(ctx, origin, caller.userId, command, input.startsSession)
  return session ? { session, trustToken, user: null } : { session: null, trustToken: null, user: null }
}

/** The ordinary way: the command decided on the stream as it is now, then the session, if it passed. */
const decideThenStart = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  userId: string,
  command: TwoFactorCommand,
  startsSession: boolean,
): Promise<StartedSession | null> => {
  const { events } = await runTwoFactorCommand(ctx, origin, userId, command)
  const refusal = refusalIn(events)
  if (refusal) throw refusal
  const passed = events.find((event) => event.type === 'two-factor.challenge-passed')
  if (passed?.type !== 'two-factor.challenge-passed' || !startsSession) return null
  return startSession(ctx, origin, {
    userId,
    rememberMe: passed.data.rememberMe,
    amr: secondStepAmr(passed.data.firstFactor, passed.data.method),
  })
}

type Check = { userId: string; now: string; challenge: ChallengeRef | null; trust: NewTrust | null }

const commandFor = (
  ctx: CommandContext,
  state: TwoFactor,
  input: CodeInput,
  check: Check,
  now: Date,
): TwoFactorCommand => {
  const { userId } = check
  switch (input.method) {
    case 'totp': {
      const key = state.totp?.secret ? base32Decode(state.totp.secret) : null
      const matchedStep = key
        ? matchingStep(key, input.code.trim(), now, ctx.config.twoFactor.totpOptions)
        : null
      return { type: 'verify-totp', matchedStep, ...check }
    }
    case 'otp': {
      // Hashed under every accepted secret: a code mailed just before a rotation still checks.
      const code = input.code.trim()
      const codeHashes = acceptedSecrets(ctx.config).map((accepted) => mailedCodeHash(accepted, userId, code))
      return { type: 'verify-otp', codeHashes, ...check }
    }
    case 'backup-code':
      return { type: 'verify-backup-code', codeHash: backupCodeHash(input.code), ...check }
  }
}

/** Mails a code (through the mail reactor, which derives it from the recorded request id). */
export const sendCode = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: CodeCaller,
): Promise<void> => {
  const now = ctx.clock()
  const { period, digits } = ctx.config.twoFactor.otpOptions
  const secret = ctx.sessions.cookieSettings.secret
  const requestId = newRequestId()
  await runTwoFactorCommand(ctx, origin, caller.userId, {
    type: 'send-otp',
    userId: caller.userId,
    requestId,
    codeHash: mailedCodeHash(secret, caller.userId, mailedCode(secret, requestId, digits)),
    expiresAt: new Date(now.getTime() + period * 60_000).toISOString(),
    challenge: challengeOf(caller),
    now: now.toISOString(),
  })
}
