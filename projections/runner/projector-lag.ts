/// How far a projector group trails the log, measured in the stores, so every instance (and the
/// CLI) reports the same figures whichever process projects: the checkpoint from the database, the
/// end of the log from the event store (the SQL table, or `$all` on KurrentDB).
///
/// On SQL the projector reads only below the cluster-wide xmin horizon (sql-event-store.ts): an
/// event committed after a transaction that is still running waits for that transaction, whatever
/// it is and whichever database of the server it runs in. `heldByHorizon` counts those events (on
/// KurrentDB, those waiting for the inline hook), and `oldestTransactionSeconds` says how long the
/// oldest transaction holding an id has been open in the read models' database.

import { type Kysely, sql } from 'kysely'
import type { EventStore, GlobalPosition } from '../../infra/event-store/event-store.js'
import { readCheckpoint } from './checkpoint-store.js'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their tables
type AnyDb = Kysely<any>

/** Counting stops here: past it the figure says "very far behind" well enough. */
const COUNT_LIMIT = 100_000

export type ProjectorLag = {
  checkpoint: GlobalPosition
  /** Committed events past the checkpoint (up to 100,000; 10,000 on KurrentDB). */
  behindEvents: number
  /** Age of the oldest committed event not yet applied; 0 when caught up. */
  behindSeconds: number
  /** Of `behindEvents`, those the projector may not read yet (the xmin horizon, the inline hook). */
  heldByHorizon: number
  /** How long the oldest transaction that holds a transaction id has run, server-wide; null if unknown. */
  oldestTransactionSeconds: number | null
}

export const measureLag = async (
  db: AnyDb,
  store: Pick<EventStore, 'head'>,
  group: string,
): Promise<ProjectorLag> => {
  const checkpoint = await readCheckpoint(db, group)
  const [head, oldest] = await Promise.all([
    store.head(checkpoint, COUNT_LIMIT),
    oldestTransactionSeconds(db),
  ])
  return {
    checkpoint,
    behindEvents: head.eventsAfter,
    behindSeconds: head.oldestAfterSeconds,
    heldByHorizon: head.heldBack,
    oldestTransactionSeconds: oldest,
  }
}

const oldestTransactionSeconds = async (db: AnyDb): Promise<number | null> => {
  try {
    const { rows } = await sql<{ age: number | null }>`
      select extract(epoch from now() - min(xact_start))::float8 as age
      from pg_stat_activity where backend_xid is not null`.execute(db)
    return rows[0]?.age ?? 0
  } catch {
    return null
  }
}
