/// How the session an authorization comes from was signed in: the `amr` its `session.started`
/// event recorded, read from the session's own stream (a revocation not yet projected cannot hide
/// it), in Tessera's own names: the grant keeps them, and `issued-tokens.ts` words them once in
/// RFC 8176's terms for each ID token.

import { sessionStream } from '../../domain/session/session.js'
import type { OAuthContext } from './oauth-context.js'

export const sessionAmrOf = async (ctx: OAuthContext, sessionId: string): Promise<string[]> => {
  const events = await ctx.store.readStream(sessionStream(sessionId))
  const started = events.find((event) => event.type === 'session.started')
  const recorded = (started?.data as { amr?: string[] } | undefined)?.amr
  return recorded ?? []
}
