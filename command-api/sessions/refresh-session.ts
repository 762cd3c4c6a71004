/// Sliding expiry: once a session is older than the update age (1 day), get-session extends it to
/// a full lifetime again (the route re-sends the cookie). At most one write per session per update age.

import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { KnownSession } from '../../http/ports/session-lookup.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import type { CommandContext } from '../context.js'

export const needsRefresh = (
  session: KnownSession,
  now: Date,
  { expiresIn, updateAge }: { expiresIn: number; updateAge: number },
) =>
  session.remember_me && session.expires_at.getTime() - expiresIn * 1000 + updateAge * 1000 <= now.getTime()

/** The extended session, or null when it needed no refresh (or could not be refreshed). */
export const refreshSession = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  { session, user }: FoundSession,
): Promise<KnownSession | null> => {
  const now = ctx.clock()
  if (!needsRefresh(session, now, ctx.config.session)) return null
  const expiresAt = new Date(now.getTime() + ctx.config.session.expiresIn * 1000)
  const { events } = await ctx.handle(
    sessionDecider,
    sessionStream(session.id),
    { type: 'refresh-session', now: now.toISOString(), expiresAt: expiresAt.toISOString() },
    { metadata: metadataFor(origin, { type: 'user', userId: user.id }, now) },
  )
  if (events.length === 0) return null
  return (await ctx.lookups.sessions.byId(session.id)) ?? null
}
