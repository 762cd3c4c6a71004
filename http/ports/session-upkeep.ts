/// What get-session may write while it reads (slide a session's expiry, end an expired one). The
/// command side implements it (command-api/sessions/session-upkeep.ts) and the composition root
/// hands it to the query side, so neither API imports the other.

import type { RequestOrigin } from '../../domain/shared/metadata.js'
import type { SessionRow } from '../../projections/sessions/sessions.table.js'
import type { FoundSession } from '../sessions/resolve-session.js'

export type SessionUpkeep = {
  /** Extends a session past the update age; the new row, or null when nothing changed. */
  refresh(found: FoundSession, origin: RequestOrigin): Promise<SessionRow | null>
  expire(sessionId: string, origin: RequestOrigin): Promise<void>
}
