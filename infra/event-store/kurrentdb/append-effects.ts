/// The SQL store's inline hook (pending revocations, erasure), on KurrentDB. On SQL the hook runs in
/// the append's own transaction; KurrentDB's append cannot share a PostgreSQL transaction, so the
/// hook follows the log instead, with a checkpoint of its own in `tessera_checkpoints` (with the
/// read models), moved in the same PostgreSQL transaction as the hook's writes:
///
/// - exactly once, in the log's order: each pass takes an advisory lock, reads its checkpoint,
///   applies the events after it and moves it, all in one transaction;
/// - the append waits for a pass that covers its events before it returns, so a revocation or an
///   erasure holds as the command answers, as on SQL;
/// - a crash between the KurrentDB append and the pass is repaired by the next pass (the next
///   append, or the projector's next read, in any process): the checkpoint still points before;
/// - the store's `readAll` never returns an event past this checkpoint (kurrentdb-event-store.ts),
///   so the projector, which deletes a pending revocation as it applies its event, never applies an
///   event whose hook has yet to run (it would leave the row behind for good).

import { type Kysely, sql } from 'kysely'
import type { GlobalPosition, RecordedEvent } from '../event-store.js'
import { START } from '../event-store.js'
import type { InlineProjection } from '../sql-event-store.js'

export const APPEND_EFFECTS_CHECKPOINT = 'kurrentdb-inline-hook'

export type AppendEffectsOptions = {
  // biome-ignore lint/suspicious/noExplicitAny: the checkpoints table only, read and written raw
  db: Kysely<any>
  hook: InlineProjection
  /** The log after a position, unbounded by this checkpoint (the store's raw read). */
  read: (after: GlobalPosition, limit: number) => Promise<RecordedEvent[]>
  name?: string
  pageSize?: number
}

export type AppendEffects = {
  /** Runs the hook up to the end of the log as it is now; resolves to the checkpoint after it. */
  catchUp(): Promise<GlobalPosition>
  /** Where the hook has got to, read without running it. */
  checkpoint(): Promise<GlobalPosition>
}

export const createAppendEffects = ({
  db,
  hook,
  read,
  name = APPEND_EFFECTS_CHECKPOINT,
  pageSize = 500,
}: AppendEffectsOptions): AppendEffects => {
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const readCheckpoint = async (from: Kysely<any>): Promise<GlobalPosition> => {
    const { rows } = await sql<{ tx: string; seq: string }>`
      select tx::text as tx, seq::text as seq from tessera_checkpoints where name = ${name}`.execute(from)
    const stored = rows[0]
    return stored ? { tx: BigInt(stored.tx), seq: BigInt(stored.seq) } : START
  }

  /** One page in one transaction; false once the log has nothing more. */
  const pass = async (): Promise<{ checkpoint: GlobalPosition; more: boolean }> =>
    db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`tessera-inline:${name}`}, 0))`.execute(trx)
      const checkpoint = await readCheckpoint(trx)
      const events = await read(checkpoint, pageSize)
      const last = events.at(-1)
      if (!last) return { checkpoint, more: false }
      await hook(trx, events)
      await sql`
        insert into tessera_checkpoints (name, tx, seq)
        values (${name}, ${last.position.tx.toString()}, ${last.position.seq.toString()})
        on conflict (name) do update set tx = excluded.tx, seq = excluded.seq`.execute(trx)
      return { checkpoint: last.position, more: events.length === pageSize }
    })

  const run = async (): Promise<GlobalPosition> => {
    for (;;) {
      const { checkpoint, more } = await pass()
      if (!more) return checkpoint
    }
  }

  // Callers in one process share passes: one running, at most one queued behind it. A caller whose
  // append landed while a pass ran waits for the queued one, which starts after its append.
  let running: Promise<GlobalPosition> | null = null
  let queued: Promise<GlobalPosition> | null = null
  const start = (): Promise<GlobalPosition> => {
    const current = run().finally(() => {
      if (running === current) running = null
    })
    running = current
    return current
  }

  return {
    checkpoint: () => readCheckpoint(db),
    catchUp() {
      if (!running) return start()
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = null
          return start()
        })
      return queued
    },
  }
}
