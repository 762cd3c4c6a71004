/// The writes get-session makes while reading, offered to the query side as a port
/// (`http/ports/session-upkeep.ts`): sliding a session's expiry, and ending one found expired.

import type { SessionUpkeep } from '../../http/ports/session-upkeep.js'
import type { CommandContext } from '../context.js'
import { expireSession } from './end-session.js'
import { refreshSession } from './refresh-session.js'

export const sessionUpkeepFor = (ctx: CommandContext): SessionUpkeep => ({
  refresh: (found, origin) => refreshSession(ctx, origin, found),
  expire: (sessionId, origin) => expireSession(ctx, origin, sessionId),
})
