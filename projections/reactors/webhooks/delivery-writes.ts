/// The endpoints' attempt rows and checkpoints, written together. Each endpoint's run saves what it
/// delivered when it reaches the log's end, and one commit wakes every endpoint: with 8 endpoints a
/// sign-up made 8 writes (each a round trip and a transaction) within a few milliseconds of each
/// other. Here the saves of all endpoints that arrive within GATHER_MS of the first (or while a
/// write is in flight) go out as one statement (`saveManyDeliveries`), and each run waits for it,
/// still holding its endpoint's lock, before it reads on. A failed write fails every run in it:
/// each keeps its checkpoint before the unsaved events and sends them again (at-least-once).

import type { Kysely } from 'kysely'
import type { Database } from '../../database.js'
import {
  saveManyDeliveries,
  type WebhookDeliveriesTable,
  type WebhookProgressRow,
} from './webhook-deliveries.table.js'

export type DeliveryWrites = {
  /** Resolves once the attempts and the checkpoint are written (through `q`, with others'). */
  save(
    q: Kysely<Database>,
    attempts: readonly WebhookDeliveriesTable[],
    progress: WebhookProgressRow,
  ): Promise<void>
  /**
   * When attempts made now and left unsaved at the log's end are to be written (performance.now()
   * ms): the moment set for other endpoints' if it is still ahead, else `withinMs` from now. Runs
   * that deliver one commit's events milliseconds apart then write at one moment, in one statement,
   * rather than each a second after its own first attempt.
   */
  dueAt(withinMs: number): number
}

/** How long the first save waits for others: under a database round trip, well under a delivery's. */
const GATHER_MS = 5

type Waiting = {
  attempts: WebhookDeliveriesTable[]
  progress: Map<string, WebhookProgressRow>
  settle: Array<{ resolve(): void; reject(error: unknown): void }>
}

type Write = (
  q: Kysely<Database>,
  attempts: readonly WebhookDeliveriesTable[],
  progress: readonly WebhookProgressRow[],
) => Promise<void>

/** One queue per connection: each run's writes go through the connection that holds its lock. */
export const gatheringWrites = (
  gatherMs = GATHER_MS,
  writeMany: Write = saveManyDeliveries,
  now: () => number = () => performance.now(),
): DeliveryWrites => {
  let due = Number.NEGATIVE_INFINITY
  const queues = new Map<Kysely<Database>, { waiting: Waiting | null; writing: Promise<void> }>()

  const write = async (q: Kysely<Database>, batch: Waiting) => {
    try {
      await writeMany(q, batch.attempts, [...batch.progress.values()])
      for (const run of batch.settle) run.resolve()
    } catch (error) {
      for (const run of batch.settle) run.reject(error)
    }
  }

  const startBatch = (q: Kysely<Database>) => {
    const queue = queues.get(q) ?? { waiting: null, writing: Promise.resolve() }
    queues.set(q, queue)
    const batch: Waiting = { attempts: [], progress: new Map(), settle: [] }
    queue.waiting = batch
    const gathered = new Promise<void>((resolve) => setTimeout(resolve, gatherMs))
    // After the write before it: saves arriving meanwhile join this batch.
    queue.writing = Promise.all([queue.writing, gathered]).then(() => {
      if (queue.waiting === batch) queue.waiting = null
      return write(q, batch)
    })
    void queue.writing.then(() => {
      if (queues.get(q) === queue && queue.waiting === null) queues.delete(q)
    })
    return batch
  }

  return {
    dueAt(withinMs) {
      if (due <= now()) due = now() + withinMs
      return Math.min(due, now() + withinMs)
    },
    save(q, attempts, progress) {
      const queued = queues.get(q)?.waiting
      // An endpoint saves once per batch: a second save of the same endpoint starts the next one.
      const batch = queued && !queued.progress.has(progress.endpoint_id) ? queued : startBatch(q)
      batch.attempts.push(...attempts)
      batch.progress.set(progress.endpoint_id, progress)
      return new Promise<void>((resolve, reject) => batch.settle.push({ resolve, reject }))
    },
  }
}
