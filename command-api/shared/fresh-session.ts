/// better-auth's freshSessionMiddleware as a fact: the session signed in within `session.freshAge`
/// seconds (0: always fresh). Measured at the edge, which holds the clock and the session; the
/// deciders that care (`sessionFresh` of their commands) refuse with 403 SESSION_NOT_FRESH.

import type { CommandContext } from '../context.js'

export const isSessionFresh = (ctx: Pick<CommandContext, 'config' | 'clock'>, startedAt: Date): boolean => {
  const { freshAge } = ctx.config.session
  return freshAge === 0 || ctx.clock().getTime() - startedAt.getTime() < freshAge * 1000
}
