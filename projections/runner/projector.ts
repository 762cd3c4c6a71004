/// The projector: reads the log in its global order and applies each batch to the read models in
/// the same transaction as its checkpoint, so a crash never applies an event twice or skips one.
/// Two projector processes never apply the same group at once: each batch takes an advisory lock
/// and re-reads the checkpoint under it.
///
/// Commands call `waitFor(position)` after appending, so they answer only once the read models show
/// their own events (read-your-writes). In process this is a direct wake-up; a process that does
/// not project (`--role api`) follows the checkpoint table instead.
///
/// A failed batch is retried with exponential backoff; wake-ups (commits, waiters) never cut a
/// backoff short. An event a projection fails to apply `maxAttempts` times in a row halts the group
/// loudly (an error log, a fault row every instance reports as not ready, `status()`), and waiters
/// are told at once that their position will not be reached. An operator then retries or skips it
/// (`tessera projections retry|skip`, projector-faults.ts); skipped events stay skipped in a replay.

import { EventEmitter } from 'node:events'
import {
  comparePositions,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import { applyBatchInTransaction, lockGroup, ProjectionError, retryDelayMs } from './apply-batch.js'
import { readCheckpoint as readStoredCheckpoint } from './checkpoint-store.js'
import {
  clearFault,
  describeFault,
  type ProjectorFault,
  readFault,
  readSkippedEventIds,
  writeFault,
} from './projector-faults.js'
import type { Projector, ProjectorLogger, ProjectorOptions } from './projector-types.js'

export type { Projector, ProjectorLogger, ProjectorOptions, ProjectorStatus } from './projector-types.js'

const silentLogger: ProjectorLogger = { error: () => {}, warn: () => {} }

export const createProjector = (options: ProjectorOptions): Projector => {
  const { db, store, projections, group = 'read-models', mode = 'apply', batchSize = 500 } = options
  const pollIntervalMs = options.pollIntervalMs ?? (mode === 'apply' ? 1000 : 5)
  const { maxAttempts = 5, retryBaseMs = 500 } = options
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
  let failuresTotal = 0
  let lastError: string | null = null
  /** No wake-up may start a run before this time (the backoff of the last failure). */
  let retryAt = 0
  let suspect: { error: ProjectionError; attempts: number } | null = null
  let halted: ProjectorFault | null = null
  let skipped: Set<string> | null = null

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

  /**
   * After a projection failed on an event, the events before it go first, in a batch of their own,
   * and the suspect alone after them: a poison event holds back nothing that precedes it.
   */
  const withoutSuspect = (batch: RecordedEvent[]): RecordedEvent[] => {
    const at = suspect ? batch.findIndex((event) => event.id === suspect?.error.event.id) : -1
    return at === -1 ? batch : batch.slice(0, Math.max(1, at))
  }

  /**
   * Applies one batch; returns whether the log may hold more right now. A full read may be followed
   * by more; a short one that was applied as read reached the end of what was readable, and a commit
   * after that read wakes the projector again (`pump`'s `again`), so reading once more would
   * only cost every command two more queries.
   */
  const applyBatch = async (): Promise<boolean> => {
    skipped ??= await readSkippedEventIds(db, group)
    const skip = skipped
    const read = await store.readAll(checkpoint, batchSize)
    const batch = withoutSuspect(read)
    const last = batch.at(-1)
    if (!last) return rewoundUnderUs()
    const expected = checkpoint
    const movedTo = await applyBatchInTransaction(db, {
      group,
      projections,
      events: batch,
      expected,
      skip,
      singleBackend: options.singleBackend === true,
    })
    if (movedTo) {
      adopt(movedTo, expected, batch)
      return true
    }
    advanceTo(last.position, batch)
    return read.length === batchSize || batch.length < read.length
  }

  const catchUpOnce = async () => {
    if (mode === 'follow') {
      advanceTo(await readCheckpoint(), [])
      return
    }
    while (await applyBatch()) {}
  }

  const halt = async (error: ProjectionError, attempts: number) => {
    halted = {
      group,
      position: error.event.position,
      eventId: error.event.id,
      eventType: error.event.type,
      projection: error.projection,
      error: error.cause instanceof Error ? error.cause.message : String(error.cause),
      attempts,
      haltedAt: new Date(),
    }
    events.emit('halted')
    logger.error(
      { group, fault: { ...halted, position: `${halted.position.tx}:${halted.position.seq}` } },
      `projector halted: ${describeFault(halted)}. Read models stop here; run \`tessera projections retry\` after a fix, or \`tessera projections skip ${halted.position.tx}:${halted.position.seq}\``,
    )
    await writeFault(db, halted).catch((err: unknown) =>
      logger.error({ err, group }, 'could not record the projector fault'),
    )
  }

  const failed = async (error: unknown) => {
    failures += 1
    failuresTotal += 1
    lastError = error instanceof Error ? error.message : String(error)
    // Only a projection's own failure counts towards halting: a database that is down fails
    // reading the log first, and that is waited out, however long it takes.
    if (error instanceof ProjectionError) {
      const attempts = suspect?.error.event.id === error.event.id ? suspect.attempts + 1 : 1
      suspect = { error, attempts }
      if (attempts >= maxAttempts) return halt(error, attempts)
    }
    const delay = retryDelayMs(error, failures, retryBaseMs)
    retryAt = Date.now() + delay
    logger.error(
      { err: error, group, failures, retryInMs: delay },
      'projector batch failed; read models unchanged, retrying',
    )
  }

  const recovered = () => {
    if (failures > 0) logger.warn({ group, failures }, 'projector recovered')
    failures = 0
    suspect = null
    retryAt = 0
    lastError = null
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
        recovered()
      } catch (error) {
        await failed(error)
        throw error
      } finally {
        running = null
      }
    })()
    return running
  }

  /** A nudge (a commit, a waiter): runs now unless stopped, halted or inside a backoff. */
  const wake = () => {
    if (stopped || halted || Date.now() < retryAt) return
    void pump().catch(() => {})
  }

  const resume = () => {
    halted = null
    skipped = null
    recovered()
  }

  const schedule = (delayMs: number) => {
    if (stopped) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(tick, delayMs)
    timer.unref()
  }

  /** Halted: wait for an operator (another process may clear the fault, then we go on). */
  const checkHalt = async () => {
    const fault = await readFault(db, group).catch(() => halted)
    if (fault) return schedule(pollIntervalMs)
    logger.warn({ group }, 'projector fault cleared; resuming')
    resume()
    tick()
  }

  const tick = () => {
    if (halted) return void checkHalt()
    const wait = retryAt - Date.now()
    if (wait > 0) return schedule(wait)
    pump().then(
      () => schedule(pollIntervalMs),
      () => schedule(halted ? pollIntervalMs : Math.max(0, retryAt - Date.now())),
    )
  }

  return {
    async start() {
      if (!stopped) return
      stopped = false
      checkpoint = await readCheckpoint()
      if (mode === 'apply') {
        // A fault outlives restarts: an operator decides (`tessera projections retry|skip`).
        halted = await readFault(db, group)
        if (halted) logger.error({ group }, `projector halted: ${describeFault(halted)}`)
        unsubscribe = store.subscribe(wake)
      }
      if (!halted) await pump().catch(() => {})
      schedule(halted ? pollIntervalMs : Math.max(pollIntervalMs, retryAt - Date.now()))
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
      if (halted || timeoutMs <= 0) return Promise.resolve(false)
      return new Promise<boolean>((resolve) => {
        const check = () => {
          if (comparePositions(checkpoint, position) < 0) return
          finish(true)
        }
        const giveUp = () => finish(false)
        const finish = (reached: boolean) => {
          clearTimeout(deadline)
          clearInterval(follow)
          events.off('advanced', check)
          events.off('halted', giveUp)
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
        events.on('halted', giveUp)
        // A run already going reads what the waiter's commit wrote: the commit woke it (so it
        // started after the commit, or will go round once more). Waking it again would only cost
        // one more read of the log and of the checkpoint.
        if (mode === 'apply' && !running) wake()
      })
    },

    position: () => checkpoint,

    status: () => ({
      group,
      mode,
      state: stopped ? 'stopped' : halted ? 'halted' : failures > 0 ? 'retrying' : 'running',
      position: checkpoint,
      failures,
      failuresTotal,
      lastError,
      fault: halted,
    }),

    async retry() {
      await clearFault(db, group)
      if (!halted) return
      resume()
      if (!stopped) tick()
    },

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
