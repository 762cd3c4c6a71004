/// The projector: reads the log in its global order and applies each batch to the read models in
/// the same transaction as its checkpoint, so a crash never applies an event twice or skips one.
/// Two projector processes never apply the same group at once: each batch takes an advisory lock
/// and re-reads the checkpoint under it.
///
/// Commands call `waitFor(position)` after appending, so they answer only once the read models show
/// their own events (read-your-writes). In process this is a direct wake-up; a process that does
/// not project (`--role api`) follows the checkpoint table instead.

import { EventEmitter } from 'node:events'
import { type Kysely, sql, type Transaction } from 'kysely'
import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'
import { readCheckpoint as readStoredCheckpoint } from './checkpoint-store.js'

export type ProjectorLogger = { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }

export type ProjectorOptions = {
  db: Kysely<Database>
  store: EventStore
  projections: readonly Projection[]
  /** Name of the checkpoint; one group of projections shares it. */
  group?: string
  /** `apply`: this process projects. `follow`: another process does; only track its checkpoint. */
  mode?: 'apply' | 'follow'
  batchSize?: number
  /** Safety net besides commit notifications. */
  pollIntervalMs?: number
  logger?: ProjectorLogger
}

export type Projector = {
  start(): Promise<void>
  stop(): Promise<void>
  /** Applies everything readable now; resolves when caught up. */
  catchUp(): Promise<void>
  /** Resolves true once the read models include `position`, false after `timeoutMs`. */
  waitFor(position: GlobalPosition, timeoutMs?: number): Promise<boolean>
  position(): GlobalPosition
  /**
   * Called after each committed batch, with its events (used to invalidate caches). In `apply` mode
   * this includes batches another instance of the group committed; a `follow` projector reads no
   * events and never calls it. A listener that throws is logged and does not stop the projector.
   */
  onApplied(listener: (events: readonly RecordedEvent[]) => void): () => void
}

/** Serialises every writer of one group's read models and checkpoint until the transaction ends. */
const lockGroup = async (trx: Transaction<Database>, group: string): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`tessera-projector:${group}`}, 0))`.execute(trx)
}

const silentLogger: ProjectorLogger = { error: () => {}, warn: () => {} }

export const createProjector = (options: ProjectorOptions): Projector => {
  const { db, store, projections, group = 'read-models', mode = 'apply', batchSize = 500 } = options
  const pollIntervalMs = options.pollIntervalMs ?? (mode === 'apply' ? 1000 : 5)
  const logger = options.logger ?? silentLogger
  const events = new EventEmitter()
  events.setMaxListeners(0)
  const appliedListeners = new Set<(events: readonly RecordedEvent[]) => void>()
  let checkpoint: GlobalPosition = START
  let running: Promise<void> | null = null
  let again = false
  let stopped = true
  let timer: NodeJS.Timeout | null = null
  let unsubscribe: (() => void) | null = null
  let failures = 0

  const readCheckpoint = () => readStoredCheckpoint(db, group)

  // A listener's failure must not look like a failed batch: the batch is committed, and waiters
  // still have to hear that the checkpoint moved.
  const notifyApplied = (applied: readonly RecordedEvent[]) => {
    for (const listener of appliedListeners) {
      try {
        listener(applied)
      } catch (error) {
        logger.error({ err: error, group }, 'onApplied listener failed')
      }
    }
  }

  const advanceTo = (position: GlobalPosition, applied: readonly RecordedEvent[]) => {
    if (comparePositions(position, checkpoint) <= 0) return
    checkpoint = position
    if (applied.length > 0) notifyApplied(applied)
    events.emit('advanced')
  }

  /**
   * Another instance moved the stored checkpoint from `expected` to `stored` while we read `batch`.
   * Ahead: the events of the batch it covers are in the read models, and listeners here (caches)
   * must hear of them as if we had applied them. Behind: the read models were reset (`replay`), so
   * this instance continues from there too.
   */
  const adopt = (stored: GlobalPosition, expected: GlobalPosition, batch: readonly RecordedEvent[]) => {
    if (comparePositions(stored, expected) < 0) {
      checkpoint = stored
      return
    }
    const covered = batch.filter((event) => comparePositions(event.position, stored) <= 0)
    const reached = covered.at(-1)
    // Only a log that lost events could leave nothing covered; then trust the stored checkpoint.
    if (reached) advanceTo(reached.position, covered)
    else advanceTo(stored, [])
  }

  /**
   * Caught up with the log, the read models can still be behind us: a replay emptied them and their
   * checkpoint (and may have died before rebuilding them). Then continue from the stored checkpoint.
   */
  const rewoundUnderUs = async (): Promise<boolean> => {
    const stored = await readCheckpoint()
    if (comparePositions(stored, checkpoint) >= 0) return false
    checkpoint = stored
    return true
  }

  /** Applies one batch; returns false when there was nothing to apply. */
  const applyBatch = async (): Promise<boolean> => {
    const batch = await store.readAll(checkpoint, batchSize)
    const last = batch.at(-1)
    if (!last) return rewoundUnderUs()
    const expected = checkpoint
    const movedTo = await db.transaction().execute(async (trx) => {
      await lockGroup(trx, group)
      const row = await trx
        .selectFrom('tessera_checkpoints')
        .selectAll()
        .where('name', '=', group)
        .forUpdate()
        .executeTakeFirst()
      const stored = row ? { tx: BigInt(row.tx), seq: BigInt(row.seq) } : START
      // Another projector process got here first: take its checkpoint and read again.
      if (comparePositions(stored, expected) !== 0) return stored
      for (const event of batch) for (const projection of projections) await projection.apply(trx, event)
      const values = { name: group, tx: last.position.tx.toString(), seq: last.position.seq.toString() }
      await trx
        .insertInto('tessera_checkpoints')
        .values(values)
        .onConflict((oc) => oc.column('name').doUpdateSet({ tx: values.tx, seq: values.seq }))
        .execute()
      return null
    })
    if (movedTo) adopt(movedTo, expected, batch)
    else advanceTo(last.position, batch)
    return true
  }

  const catchUpOnce = async () => {
    if (mode === 'follow') {
      advanceTo(await readCheckpoint(), [])
      return
    }
    while (await applyBatch()) {}
  }

  // One run at a time; a wake-up during a run schedules exactly one more.
  const pump = (): Promise<void> => {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      try {
        do {
          again = false
          await catchUpOnce()
        } while (again)
        failures = 0
      } catch (error) {
        failures += 1
        logger.error(
          { err: error, group, failures },
          'projector batch failed; read models unchanged, retrying',
        )
        throw error
      } finally {
        running = null
      }
    })()
    return running
  }

  const schedule = (delayMs: number) => {
    if (stopped) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(tick, delayMs)
    timer.unref()
  }

  const tick = () => {
    pump().then(
      () => schedule(pollIntervalMs),
      () => schedule(Math.min(30_000, 200 * 2 ** failures)),
    )
  }

  return {
    async start() {
      if (!stopped) return
      stopped = false
      checkpoint = await readCheckpoint()
      if (mode === 'apply') unsubscribe = store.subscribe(() => void pump().catch(() => {}))
      await pump().catch(() => {})
      schedule(pollIntervalMs)
    },

    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      unsubscribe?.()
      await running?.catch(() => {})
    },

    catchUp: () => pump(),

    waitFor(position, timeoutMs = 5000) {
      if (comparePositions(checkpoint, position) >= 0) return Promise.resolve(true)
      return new Promise<boolean>((resolve) => {
        const check = () => {
          if (comparePositions(checkpoint, position) < 0) return
          finish(true)
        }
        const finish = (reached: boolean) => {
          clearTimeout(deadline)
          clearInterval(follow)
          events.off('advanced', check)
          resolve(reached)
        }
        const deadline = setTimeout(() => finish(false), timeoutMs)
        // A follower learns of progress only by reading the checkpoint table. A stopped projector
        // touches the database no more: the caller gets false when the time is up.
        const follow = setInterval(
          () => !stopped && mode === 'follow' && void pump().catch(() => {}),
          pollIntervalMs,
        )
        events.on('advanced', check)
        if (!stopped && mode === 'apply') void pump().catch(() => {})
      })
    },

    position: () => checkpoint,

    onApplied(listener) {
      // Wrapped, so one function subscribed twice is two subscriptions, each undone by its own call.
      const subscription = (applied: readonly RecordedEvent[]) => listener(applied)
      appliedListeners.add(subscription)
      return () => appliedListeners.delete(subscription)
    },
  }
}

/** Empties every read model and its checkpoint, then applies the whole log again. */
export const replay = async (options: ProjectorOptions): Promise<GlobalPosition> => {
  const { db, projections, group = 'read-models' } = options
  await db.transaction().execute(async (trx) => {
    // The live projector's lock: a batch it has in flight commits before the tables are emptied,
    // or its rows would survive the reset and collide with the replayed ones.
    await lockGroup(trx, group)
    for (const table of new Set(projections.flatMap((p) => p.tables))) await trx.deleteFrom(table).execute()
    await trx.deleteFrom('tessera_checkpoints').where('name', '=', group).execute()
  })
  const projector = createProjector({ ...options, mode: 'apply' })
  await projector.catchUp()
  return projector.position()
}
