/// What command use cases read of sessions from the sessions read model, as a port on their context
/// (`CommandContext.lookups.sessions`), implemented over the sessions repository by the composition
/// root (app/server/command-lookups.ts).

import type { SessionWithUser } from '../../projections/sessions/sessions.repository.js'
import type { SessionRow } from '../../projections/sessions/sessions.table.js'

/** A session as the sessions read model holds it. */
export type KnownSession = SessionRow

/** A session with its owner's row (the guards' and presenters' shape). */
export type { SessionWithUser }

export type SessionLookup = {
  byId(sessionId: string): Promise<KnownSession | undefined>
  /** The live session with this token hash and its owner (a committed revocation already counts). */
  byTokenHash(tokenHash: string): Promise<SessionWithUser | undefined>
  /** Every live session of the person (the ones to end on a password change, say). */
  ofUser(userId: string): Promise<KnownSession[]>
  /** The id of the session with this token hash, pending revocation or not; null when none. */
  idByTokenHash(tokenHash: string): Promise<string | null>
}
