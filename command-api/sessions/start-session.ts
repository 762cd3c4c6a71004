/// Starting a session (sign-up with auto sign-in, sign-in, a password change that signs out other
/// devices): a fresh CSPRNG token, stored only as its hash, 7 days (or 1 day without remember-me).
/// The caller sets the cookie from the answer.

import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { newId, sessionToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'

/** Lifetime of a session whose owner did not ask to be remembered (spec: 86400 s). */
export const UNREMEMBERED_SESSION_SECONDS = 86_400

export type StartedSession = { token: string; sessionId: string; rememberMe: boolean }

export const startSession = async (
  { handle, clock, config }: CommandContext,
  origin: RequestOrigin,
  { userId, rememberMe }: { userId: string; rememberMe: boolean },
): Promise<StartedSession> => {
  const now = clock()
  const token = sessionToken()
  const sessionId = newId()
  const lifetime = rememberMe ? config.session.expiresIn : UNREMEMBERED_SESSION_SECONDS
  await handle(
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
      rememberMe,
    },
    { metadata: metadataFor(origin, { type: 'user', userId }, now) },
  )
  return { token, sessionId, rememberMe }
}
