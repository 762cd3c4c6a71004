/// Starting a session (sign-up with auto sign-in, sign-in, a password change that signs out other
/// devices): a fresh CSPRNG token, stored only as its hash, 7 days (or 1 day without remember-me).
/// The caller sets the cookie from the answer.

import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { newId, sessionToken, sha256Hex } from '../../infra/crypto/tokens.js'
import type { UserRow } from '../../projections/users/users.table.js'
import type { CommandContext } from '../context.js'
import { refuseBannedUser } from '../shared/refuse-banned.js'

/** Lifetime of a session whose owner did not ask to be remembered (spec: 86400 s). */
export const UNREMEMBERED_SESSION_SECONDS = 86_400

export type StartedSession = { token: string; sessionId: string; rememberMe: boolean }

/**
 * `impersonatedBy`: an operator opens the session as the user (admin plugin), acting as themselves,
 * for `lifetimeSeconds`. A banned user gets no session, whoever opens it.
 */
export type StartSessionInput = {
  userId: string
  /** The user's row as the caller read it a moment ago (sign-up): its ban is checked without reading it again. */
  justRead?: UserRow
  rememberMe: boolean
  impersonatedBy?: string
  lifetimeSeconds?: number
}

export const startSession = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { userId, justRead, rememberMe, impersonatedBy, lifetimeSeconds }: StartSessionInput,
): Promise<StartedSession> => {
  const { handle, config } = ctx
  await refuseBannedUser(ctx, origin, userId, justRead)
  const now = ctx.clock()
  const token = sessionToken()
  const sessionId = newId()
  const lifetime = lifetimeSeconds ?? (rememberMe ? config.session.expiresIn : UNREMEMBERED_SESSION_SECONDS)
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
      ...(origin.place ? { place: origin.place } : {}),
      rememberMe,
      ...(impersonatedBy !== undefined ? { impersonatedBy } : {}),
    },
    {
      metadata: metadataFor(origin, { type: 'user', userId: impersonatedBy ?? userId }, now),
      newStream: true,
    },
  )
  return { token, sessionId, rememberMe }
}
