/// How the session an authorization comes from was signed in: the `amr` its `session.started`
/// event recorded, read from the session's own stream (the sessions read model does not keep it),
/// in RFC 8176's words for the grant and its ID tokens.

import { authenticationClaims } from '../../domain/oauth-provider/authentication-methods.js'
import { sessionStream } from '../../domain/session/session.js'
import type { OAuthContext } from './oauth-context.js'

export const sessionAmrOf = async (ctx: OAuthContext, sessionId: string): Promise<string[]> => {
  const events = await ctx.store.readStream(sessionStream(sessionId))
  const started = events.find((event) => event.type === 'session.started')
  const recorded = (started?.data as { amr?: string[] } | undefined)?.amr
  return authenticationClaims(recorded).amr
}
