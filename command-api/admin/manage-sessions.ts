/// Operators ending users' sessions: one (by the handle list-user-sessions gives, the session id,
/// or by its raw token) or all of them. Each is a `session.revoked` with the operator as actor.

import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
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

const sessionIdOf = async ({ lookups }: CommandContext, handle: string): Promise<string | null> => {
  const byId = await lookups.sessions.byId(handle)
  if (byId) return byId.id
  return lookups.sessions.idByTokenHash(sha256Hex(handle))
}

/** As better-auth: success whether or not the session still existed. */
export const revokeUserSessionByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  handle: string,
): Promise<void> => {
  const sessionId = await sessionIdOf(ctx, handle)
  if (sessionId) await revokeById(ctx, origin, actor, sessionId)
}

export const revokeUserSessionsByAdmin = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  actor: Actor,
  userId: string,
): Promise<void> => {
  for (const session of await ctx.lookups.sessions.ofUser(userId))
    await revokeById(ctx, origin, actor, session.id)
}
