/// Starting a session (sign-up with auto sign-in, sign-in, a password change that signs out other
/// devices): a fresh CSPRNG token, stored only as its hash, 7 days (or 1 day without remember-me).
/// The caller sets the cookie from the answer.

import { type SessionCommand, sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { newId, sessionToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import { handlePart } from '../shared/handle.js'
import { holdingBan } from '../shared/refuse-banned.js'

/** Lifetime of a session whose owner did not ask to be remembered (spec: 86400 s). */
export const UNREMEMBERED_SESSION_SECONDS = 86_400

export type StartedSession = { token: string; sessionId: string; rememberMe: boolean }

type StartCommand = Extract<SessionCommand, { type: 'start-session' }>

/**
 * `impersonatedBy`: an operator opens the session as the user (admin plugin), acting as themselves,
 * for `lifetimeSeconds`. A banned user gets no session, whoever opens it.
 */
export type StartSessionInput = {
  userId: string
  rememberMe: boolean
  impersonatedBy?: string
  lifetimeSeconds?: number
  /** How the person signed in, when it says more than a password (`['passkey']`). */
  amr?: string[]
  /** An operator opening it as the person: both, and the admin options, for the decider to judge. */
  impersonation?: StartCommand['impersonation']
}

export const startSession = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: StartSessionInput,
): Promise<StartedSession> => {
  // Who may not have a session is the session decider's rule: the edge reads the facts.
  const bannedWith = await holdingBan(ctx, origin, input.userId)
  const deactivated = await ctx.lookups.users.isDeactivated(input.userId)
  const { part, started } = newSession(ctx, origin, input, { bannedWith, deactivated })
  await ctx.handle.together([part])
  return started
}

/**
 * The command that starts a session, for a caller that appends it with other commands (a new
 * user's first session, with the user); no ban check, since such a user cannot be banned yet.
 */
export const newSession = (
  { config, clock }: Pick<CommandContext, 'config' | 'clock'>,
  origin: RequestOrigin,
  { userId, rememberMe, impersonatedBy, lifetimeSeconds, amr, impersonation }: StartSessionInput,
  standing: Pick<StartCommand, 'bannedWith' | 'deactivated'> = {},
) => {
  const now = clock()
  const token = sessionToken()
  const sessionId = newId()
  const lifetime = lifetimeSeconds ?? (rememberMe ? config.session.expiresIn : UNREMEMBERED_SESSION_SECONDS)
  const part = handlePart(
    sessionDecider,
    sessionStream(sessionId),
    {
      type: 'start-session',
      sessionId,
      userId,
      tokenHash: sha256Hex(token),
      expiresAt: new Date(now.getTime() + lifetime * 1000).toISOString(),
      ipAddress: origin.ip,
      userAgent: origin.userAgent,
      ...(origin.place ? { place: origin.place } : {}),
      rememberMe,
      ...(impersonatedBy !== undefined ? { impersonatedBy } : {}),
      ...(amr !== undefined ? { amr } : {}),
      ...(impersonation !== undefined ? { impersonation } : {}),
      ...standing,
    },
    {
      metadata: metadataFor(origin, { type: 'user', userId: impersonatedBy ?? userId }, now),
      newStream: true,
    },
  )
  const started: StartedSession = { token, sessionId, rememberMe }
  return { part, started }
}
