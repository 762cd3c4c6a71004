/// One batch of the log applied to a group's read models: in one transaction with the group's
/// checkpoint, under the group's advisory lock, and only if the checkpoint is still where this
/// projector last saw it (another instance may have moved it). And how long to wait after a failure.

import { sql, type Transaction } from 'kysely'
import {
  comparePositions,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'
import type { ProjectorOptions } from './projector-types.js'

/** A projection threw on an event: the event, not the database, is the suspect. */
export class ProjectionError extends Error {
  override readonly name = 'ProjectionError'
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    override readonly cause: unknown,
  ) {
    super(`${projection} failed on ${event.type}: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

/** Serialises every writer of one group's read models and checkpoint until the transaction ends. */
export const lockGroup = async (trx: Transaction<Database>, group: string): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`tessera-projector:${group}`}, 0))`.execute(trx)
}

export type Batch = {
  group: string
  projections: readonly Projection[]
  /** Events in the log's order; the checkpoint moves to the last one. */
  events: readonly RecordedEvent[]
  /** Where the stored checkpoint must still be. */
  expected: GlobalPosition
  /** Events an operator skipped: the checkpoint passes them untouched. */
  skip: ReadonlySet<string>
  /** The database is one backend (PGlite): no other writer to lock out (ProjectorOptions). */
  singleBackend: boolean
}

/**
 * Applies the batch and moves the checkpoint past it; returns null, or the stored checkpoint when
 * another projector moved it first (nothing is applied then). A projection's failure is thrown as
 * a ProjectionError, and the whole batch rolls back.
 */
export const applyBatchInTransaction = (
  db: ProjectorOptions['db'],
  { group, projections, events, expected, skip, singleBackend }: Batch,
): Promise<GlobalPosition | null> => {
  const last = events.at(-1)
  if (!last) throw new Error('an empty batch')
  return db.transaction().execute(async (trx) => {
    if (!singleBackend) await lockGroup(trx, group)
    const checkpoint = trx.selectFrom('tessera_checkpoints').selectAll().where('name', '=', group)
    const row = await (singleBackend ? checkpoint : checkpoint.forUpdate()).executeTakeFirst()
    const stored = row ? { tx: BigInt(row.tx), seq: BigInt(row.seq) } : START
    // Another projector process got here first: take its checkpoint and read again.
    if (comparePositions(stored, expected) !== 0) return stored
    for (const event of events) {
      // An operator skipped it (`tessera projections skip`): the checkpoint passes it untouched.
      if (skip.has(event.id)) continue
      for (const projection of projections) {
        try {
          await projection.apply(trx, event)
        } catch (error) {
          throw new ProjectionError(projection.name, event, error)
        }
      }
    }
    const values = { name: group, tx: last.position.tx.toString(), seq: last.position.seq.toString() }
    await trx
      .insertInto('tessera_checkpoints')
      .values(values)
      .onConflict((oc) => oc.column('name').doUpdateSet({ tx: values.tx, seq: values.seq }))
      .execute()
    return null
  })
}

/**
 * The backoff before the next try: a projection's failure backs off far (it will likely fail
 * again); a database that is away is asked again every 2 s at most, so the read models move within
 * seconds of its return.
 */
export const retryDelayMs = (error: unknown, failures: number, retryBaseMs: number): number => {
  const ceiling = error instanceof ProjectionError ? 30_000 : 2_000
  return Math.min(ceiling, retryBaseMs * 2 ** (failures - 1))
}
