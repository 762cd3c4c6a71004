/// Starting a session (sign-up with auto sign-in, sign-in): a fresh CSPRNG token, stored only as its
/// hash, 7 days (or 1 day without remember-me), then the signed cookie.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../app/server/context.js'
import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { newId, sessionToken, sha256Hex } from '../../infra/crypto/tokens.js'
import { clientIp, metadataFor, userAgentOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'

/** Lifetime of a session whose owner did not ask to be remembered (spec: 86400 s). */
export const UNREMEMBERED_SESSION_SECONDS = 86_400

export const startSession = async (
  { handle, clock, config, sessions }: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  { userId, rememberMe }: { userId: string; rememberMe: boolean },
): Promise<{ token: string; sessionId: string }> => {
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
      ipAddress: clientIp(request),
      userAgent: userAgentOf(request),
      rememberMe,
    },
    { metadata: metadataFor(request, { type: 'user', userId }, now) },
  )
  setSessionCookie(reply, token, rememberMe, sessions.cookieSettings)
  return { token, sessionId }
}
