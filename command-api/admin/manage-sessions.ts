/// Operators ending users' sessions: one (by the handle list-user-sessions gives, the session id,
/// or by its raw token) or all of them. Each is a `session.revoked` with the operator as actor.

import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import { findSessionById, listSessionsOfUser } from '../../projections/sessions/sessions.repository.js'
import type { CommandContext } from '../context.js'

const revokeById = async (ctx: CommandContext, origin: RequestOrigin, actor: Actor, sessionId: string) => {
  await ctx.handle(
    sessionDecider,
    sessionStream(sessionId),
    // `requestedBy: null`: the owner check is for users ending their own; operators may end any.
    { type: 'revoke-session', requestedBy: null, reason: 'revoked' },
    { metadata: metadataFor(origin, actor, ctx.clock()) },
  )
}

const sessionIdOf = async (db: CommandContext['db'], handle: string): Promise<string | null> => {
  const byId = await findSessionById(db, handle)
  if (byId) return byId.id
  const byToken = await db
    .selectFrom('sessions')
    .select('id')
    .where('token_hash', '=', sha256Hex(handle))
    .executeTakeFirst()
  return byToken?.id ?? null
}

/** As better-auth: success whether or not the session still existed. */
export const revokeUserSessionByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  handle: string,
): Promise<void> => {
  const sessionId = await sessionIdOf(ctx.db, handle)
  if (sessionId) await revokeById(ctx, origin, actor, sessionId)
}

export const revokeUserSessionsByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  userId: string,
): Promise<void> => {
  for (const session of await listSessionsOfUser(ctx.db, userId))
    await revokeById(ctx, origin, actor, session.id)
}
