/// "Last active" without an event per request. A request made with a valid session is a use; this
/// port records uses in an operational table (projections/sessions/session-last-use.ts), not in
/// the log: at most once every 5 minutes per session and process, never awaited by the request, so
/// get-session costs no write most of the time and never waits for one.

import type { Kysely } from 'kysely'
import { forgetStaleSessionUses, recordSessionUse } from '../../projections/sessions/session-last-use.js'

/** A session's use is recorded at most this often, and not within this of its own `updatedAt`. */
export const SESSION_USE_INTERVAL_MS = 5 * 60_000
/** How often this process removes the rows of sessions that must have expired. */
const SWEEP_INTERVAL_MS = 60 * 60_000
/** Past this many remembered sessions, those that would be recorded anyway are forgotten. */
const MAX_REMEMBERED = 50_000

export type SessionUsage = {
  /** A request was answered with this session at `now`; `updatedAt` is the session's own. */
  used(session: { id: string; updated_at: Date }, now: Date): void
  /**
   * When this process last recorded (or is recording) a use of the session, in ms; undefined when
   * it has not. list-sessions shows it even before the write lands, and while it serves last uses
   * read earlier from the table.
   */
  recordedUse(sessionId: string): number | undefined
}

export const ignoreSessionUsage: SessionUsage = { used() {}, recordedUse: () => undefined }

export const createSessionUsage = ({
  db,
  sessionLifetimeSeconds,
  onError,
}: {
  // biome-ignore lint/suspicious/noExplicitAny: any schema that has the operational table
  db: Kysely<any>
  /** config.session.expiresIn: a session unused for longer has expired. */
  sessionLifetimeSeconds: number
  onError(error: unknown): void
}): SessionUsage => {
  /** Session id → when this process last recorded its use. */
  const recorded = new Map<string, number>()
  let nextSweep = 0

  const write = async (sessionId: string, now: Date) => {
    await recordSessionUse(db, sessionId, now)
    if (now.getTime() < nextSweep) return
    nextSweep = now.getTime() + SWEEP_INTERVAL_MS
    // A use slides the session to at most `now + lifetime`, and uses are recorded within the
    // interval: a row older than both (and a day's margin) belongs to an expired session.
    const margin = sessionLifetimeSeconds * 1000 + SESSION_USE_INTERVAL_MS + 86_400_000
    await forgetStaleSessionUses(db, new Date(now.getTime() - margin))
  }

  const forgetRecordedBefore = (time: number) => {
    for (const [id, at] of recorded) if (at < time) recorded.delete(id)
  }

  return {
    recordedUse: (sessionId) => recorded.get(sessionId),
    used(session, now) {
      const at = now.getTime()
      const last = Math.max(session.updated_at.getTime(), recorded.get(session.id) ?? 0)
      if (at - last < SESSION_USE_INTERVAL_MS) return
      recorded.set(session.id, at)
      if (recorded.size > MAX_REMEMBERED) forgetRecordedBefore(at - SESSION_USE_INTERVAL_MS)
      write(session.id, now).catch((error: unknown) => {
        recorded.delete(session.id)
        onError(error)
      })
    },
  }
}
