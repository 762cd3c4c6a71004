/// Sliding expiry: once a session is older than the update age (1 day), get-session extends it to
/// a full lifetime again and re-sends the cookie. At most one write per session per update age.

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../app/server/context.js'
import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import { findSessionById } from '../../projections/sessions/sessions.repository.js'
import type { SessionRow } from '../../projections/sessions/sessions.table.js'
import type { FoundSession } from '../../query-api/sessions/resolve-session.js'

export const needsRefresh = (
  session: SessionRow,
  now: Date,
  { expiresIn, updateAge }: { expiresIn: number; updateAge: number },
) =>
  session.remember_me && session.expires_at.getTime() - expiresIn * 1000 + updateAge * 1000 <= now.getTime()

export const refreshSession = async (
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  { session, user, token }: FoundSession,
): Promise<SessionRow> => {
  const now = ctx.clock()
  if (!needsRefresh(session, now, ctx.config.session)) return session
  const expiresAt = new Date(now.getTime() + ctx.config.session.expiresIn * 1000)
  const { events } = await ctx.handle(
    sessionDecider,
    sessionStream(session.id),
    { type: 'refresh-session', now: now.toISOString(), expiresAt: expiresAt.toISOString() },
    { metadata: metadataFor(request, { type: 'user', userId: user.id }, now) },
  )
  if (events.length === 0) return session
  setSessionCookie(reply, token, true, ctx.sessions.cookieSettings)
  return (await findSessionById(ctx.db, session.id)) ?? session
}
