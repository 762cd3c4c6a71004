/// How far a projector group trails the log, measured in the database, so every instance (and the
/// CLI) reports the same figures whichever process projects.
///
/// The projector reads only below the cluster-wide xmin horizon (sql-event-store.ts): an event
/// committed after a transaction that is still running waits for that transaction, whatever it is
/// and whichever database of the server it runs in. `heldByHorizon` counts those events, and
/// `oldestTransactionSeconds` says how long the oldest transaction holding an id has been open.

import { type Kysely, sql } from 'kysely'
import type { GlobalPosition } from '../../infra/event-store/event-store.js'
import { readCheckpoint } from './checkpoint-store.js'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their tables
type AnyDb = Kysely<any>

/** Counting stops here: past it the figure says "very far behind" well enough. */
const COUNT_LIMIT = 100_000

export type ProjectorLag = {
  checkpoint: GlobalPosition
  /** Committed events past the checkpoint (up to 100,000). */
  behindEvents: number
  /** Age of the oldest committed event not yet applied; 0 when caught up. */
  behindSeconds: number
  /** Of `behindEvents`, those the projector may not read yet because of the xmin horizon. */
  heldByHorizon: number
  /** How long the oldest transaction that holds a transaction id has run, server-wide; null if unknown. */
  oldestTransactionSeconds: number | null
}

export const measureLag = async (db: AnyDb, group: string): Promise<ProjectorLag> => {
  const checkpoint = await readCheckpoint(db, group)
  const { rows } = await sql<{ behind: string; held: string; age: number | null }>`
    select count(*)::text as behind,
           count(*) filter (where e.tx_id >= pg_snapshot_xmin(pg_current_snapshot()))::text as held,
           extract(epoch from now() - min(e.recorded_at))::float8 as age
    from (select tx_id, recorded_at from tessera_events
          where (tx_id, seq) > (${checkpoint.tx.toString()}::xid8, ${checkpoint.seq.toString()}::bigint)
          order by tx_id, seq limit ${COUNT_LIMIT}) e`.execute(db)
  const row = rows[0]
  return {
    checkpoint,
    behindEvents: Number(row?.behind ?? 0),
    behindSeconds: Math.max(0, row?.age ?? 0),
    heldByHorizon: Number(row?.held ?? 0),
    oldestTransactionSeconds: await oldestTransactionSeconds(db),
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
