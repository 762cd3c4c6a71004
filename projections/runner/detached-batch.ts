/// A batch's writes projected and planned with no database behind them (issue 31): the applier
/// builds the next batch this way while the database still executes the current one, so that
/// Node's work and the database's overlap instead of taking turns (projector-roles.ts).
///
/// Only the batched path on PostgreSQL is prepared so: its writes are all held back until the batch
/// ends (write-behind.ts). A projection that reads needs the database, and its batch is then
/// applied the usual way, once the one before it has settled.

import {
  type Batch,
  knownTableFacts,
  type PreparedBatch,
  projectEvents,
  WRITE_BEHIND_FROM,
} from './apply-batch.js'
import type { ProjectorOptions } from './projector-types.js'
import { writeBehind } from './write-behind.js'

/**
 * Events projected between two turns of the event loop. Projecting awaits only settled promises,
 * which would hold the loop until the whole batch is built: the current batch's round trips
 * (its begin, its checkpoint, its text) are answered in between.
 */
const EVENTS_PER_TURN = 50

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

const pauseEveryTurn = (index: number) => (index % EVENTS_PER_TURN === 0 ? nextTurn() : undefined)

/**
 * The batch's writes, planned into the texts that apply them and commit; null when it cannot be
 * prepared so: on PGlite, a batch too short for the batched path, before the first batch read the
 * table facts the plan needs, when a projection reads or fails (the batch is then applied as
 * today, which also reports a failure at its event and projection).
 */
export const prepareDetached = async (
  db: ProjectorOptions['db'],
  batch: Batch,
): Promise<PreparedBatch | null> => {
  const facts = knownTableFacts(db)
  if (batch.singleBackend || !facts || batch.events.length < WRITE_BEHIND_FROM) return null
  const behind = writeBehind(null, true, facts)
  try {
    await projectEvents(behind.trx, behind, batch, pauseEveryTurn)
    return { batch, texts: behind.plannedTexts() }
  } catch {
    return null
  }
}
