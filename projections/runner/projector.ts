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

import {
  comparePositions,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import { lockGroup } from './apply-batch.js'
import { readCheckpoint } from './checkpoint-store.js'
import { buildDeferredIndexes, dropReaderIndexes } from './deferred-indexes.js'
import { createPositionWaiters } from './position-waiters.js'
import { clearFault, describeFault, readFault, writeFault } from './projector-faults.js'
import * as health from './projector-health.js'
import { batchApplier, type CheckpointTracker, checkpointFollower } from './projector-roles.js'
import type { AppliedListener, Projector, ProjectorLogger, ProjectorOptions } from './projector-types.js'

export type { Projector, ProjectorLogger, ProjectorOptions, ProjectorStatus } from './projector-types.js'

const silentLogger: ProjectorLogger = { error: () => {}, warn: () => {} }

export const createProjector = (options: ProjectorOptions): Projector => {
  const { db, store, group = 'read-models', mode = 'apply', batchSize = 500 } = options
  const pollIntervalMs = options.pollIntervalMs ?? (mode === 'apply' ? 1000 : 5)
  const policy = { group, maxAttempts: options.maxAttempts ?? 5, retryBaseMs: options.retryBaseMs ?? 500 }
  const logger = options.logger ?? silentLogger
  const now = options.clock ?? Date.now
  const waiters = createPositionWaiters()
  const appliedListeners = new Set<AppliedListener>()
  let checkpoint: GlobalPosition = START
  // Until the stored checkpoint is read, START above is a placeholder, not where the group stands.
  let positioned = false
  let state = health.healthy()
  let running: Promise<void> | null = null
  let again = false
  let stopped = true
  // Set by stop() only: a projector never started (a replay, `catchUp()` alone) catches up to the end.
  let stopping = false
  let timer: NodeJS.Timeout | null = null
  let unsubscribe: (() => void) | null = null

  // A listener's failure must not look like a failed batch: the batch is committed, and waiters
  // still have to hear that the checkpoint moved.
  const notifyApplied = (applied: readonly RecordedEvent[], from: GlobalPosition | undefined) => {
    for (const listener of appliedListeners) {
      try {
        listener(applied, from)
      } catch (error) {
        logger.error({ err: error, group }, 'onApplied listener failed')
      }
    }
  }

  const tracker: CheckpointTracker = {
    current: () => checkpoint,
    advanceTo(position, applied) {
      if (comparePositions(position, checkpoint) <= 0) return
      // The batch was read from a position at or before the checkpoint (a stored one adopted since
      // may have moved it on): past the checkpoint, its first event is the log's next after it.
      const first = applied[0]
      const from = first && comparePositions(first.position, checkpoint) > 0 ? checkpoint : undefined
      checkpoint = position
      if (applied.length > 0) notifyApplied(applied, from)
      waiters.reached(position)
    },
    rewindTo(position) {
      checkpoint = position
    },
  }
  const role =
    mode === 'follow'
      ? checkpointFollower({ db, group }, tracker)
      : batchApplier({ ...options, group, batchSize }, tracker)

  const logHalt = async () => {
    const fault = state.halted
    if (!fault) return
    waiters.halted()
    logger.error(
      { group, fault: { ...fault, position: `${fault.position.tx}:${fault.position.seq}` } },
      `projector halted: ${describeFault(fault)}. Read models stop here; run \`tessera projections retry\` after a fix, or \`tessera projections skip ${fault.position.tx}:${fault.position.seq}\``,
    )
    await writeFault(db, fault).catch((err: unknown) =>
      logger.error({ err, group }, 'could not record the projector fault'),
    )
  }

  const onFailure = async (error: unknown) => {
    state = health.failed(state, error, now(), policy)
    if (state.halted) return logHalt()
    logger.error(
      { err: error, group, failures: state.failures, retryInMs: state.retryAt - now() },
      'projector batch failed; read models unchanged, retrying',
    )
  }

  const onSuccess = () => {
    if (state.failures > 0) logger.warn({ group, failures: state.failures }, 'projector recovered')
    state = health.applied(state)
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
          await role.catchUp(state.suspect?.error.event.id ?? null, () => !stopping)
        } while (again && !stopping)
        onSuccess()
      } catch (error) {
        await onFailure(error)
        throw error
      } finally {
        running = null
      }
    })()
    return running
  }

  /** A nudge (a commit, a waiter): runs now unless stopped, halted or inside a backoff. */
  const wake = () => {
    if (stopped || !health.mayRun(state, now())) return
    void pump().catch(() => {})
  }

  /**
   * A catch-up before any start begins where the group stands: from the log's start it would read
   * and open every event the group has applied, batch after batch, only to find each time that the
   * stored checkpoint is further on (a catch-up after 100,000 events read the whole log before
   * them). Only forward: a run that finished meanwhile stands.
   */
  const takeStoredCheckpoint = async () => {
    const stored = await readCheckpoint(db, group)
    positioned = true
    if (comparePositions(stored, checkpoint) > 0) tracker.advanceTo(stored, [])
  }

  const resume = () => {
    state = health.resumed(state)
    role.forgetSkipped()
  }

  const schedule = (delayMs: number) => {
    if (stopped) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(tick, delayMs)
    timer.unref()
  }

  /** Halted: wait for an operator (another process may clear the fault, then we go on). */
  const checkHalt = async () => {
    const fault = await readFault(db, group).catch(() => state.halted)
    if (fault) return schedule(pollIntervalMs)
    logger.warn({ group }, 'projector fault cleared; resuming')
    resume()
    tick()
  }

  const tick = () => {
    if (state.halted) return void checkHalt()
    const wait = state.retryAt - now()
    if (wait > 0) return schedule(wait)
    pump().then(
      () => schedule(pollIntervalMs),
      () => schedule(state.halted ? pollIntervalMs : Math.max(0, state.retryAt - now())),
    )
  }

  return {
    async start() {
      if (!stopped) return
      stopped = false
      stopping = false
      checkpoint = await readCheckpoint(db, group)
      positioned = true
      if (mode === 'apply') {
        // A fault outlives restarts: an operator decides (`tessera projections retry|skip`).
        const fault = await readFault(db, group)
        if (fault) {
          state = health.haltedBy(state, fault)
          logger.error({ group }, `projector halted: ${describeFault(fault)}`)
        }
        unsubscribe = store.subscribe(wake)
      }
      if (!state.halted) await pump().catch(() => {})
      schedule(state.halted ? pollIntervalMs : Math.max(pollIntervalMs, state.retryAt - now()))
    },

    async stop() {
      stopped = true
      stopping = true
      if (timer) clearTimeout(timer)
      unsubscribe?.()
      await running?.catch(() => {})
    },

    async catchUp() {
      if (!positioned && mode === 'apply') await takeStoredCheckpoint()
      return pump()
    },

    waitFor(position, timeoutMs = 5000) {
      if (comparePositions(checkpoint, position) >= 0) return Promise.resolve(true)
      if (state.halted || timeoutMs <= 0) return Promise.resolve(false)
      // A follower learns of progress only by reading the checkpoint table. A stopped projector
      // touches the database no more: the caller gets false when the time is up.
      const poll =
        mode === 'follow'
          ? { everyMs: pollIntervalMs, run: () => !stopped && void pump().catch(() => {}) }
          : undefined
      const waiting = waiters.wait(position, timeoutMs, poll)
      // A run already going reads what the waiter's commit wrote: the commit woke it (so it
      // started after the commit, or will go round once more). Waking it again would only cost
      // one more read of the log and of the checkpoint.
      if (mode === 'apply' && !running) wake()
      return waiting
    },

    position: () => checkpoint,

    status: () => ({
      group,
      mode,
      state: health.stateOf(state, stopped),
      position: checkpoint,
      failures: state.failures,
      failuresTotal: state.failuresTotal,
      lastError: state.lastError,
      fault: state.halted,
    }),

    async retry() {
      await clearFault(db, group)
      if (!state.halted) return
      resume()
      if (!stopped) tick()
    },

    onApplied(listener) {
      // Wrapped, so one function subscribed twice is two subscriptions, each undone by its own call.
      const subscription: AppliedListener = (applied, from) => listener(applied, from)
      appliedListeners.add(subscription)
      return () => appliedListeners.delete(subscription)
    },
  }
}

/**
 * Events per batch of a replay unless asked otherwise: four times the live projector's. A batch's
 * writes of one shape go as one statement, and each batch costs its own transaction, checkpoint
 * and plan; in the replay bench (100,000 events, embedded PostgreSQL) 2,000 took 112 statements
 * and 128 ms of execution per 1,000 events where 500 took 145 and 172 ms, Node's CPU 272 ms where
 * it was 320, for the same peak RSS. No one waits on a replay's batch, so only its cost counts.
 */
const REPLAY_BATCH = 2_000

/**
 * Empties every read model and its checkpoint, then applies the whole log again; the indexes only
 * readers use are dropped meanwhile and built once at the end (deferred-indexes.ts).
 */
export const replay = async (options: ProjectorOptions): Promise<GlobalPosition> => {
  const { db, projections, group = 'read-models' } = options
  await db.transaction().execute(async (trx) => {
    // The live projector's lock: a batch it has in flight commits before the tables are emptied,
    // or its rows would survive the reset and collide with the replayed ones.
    await lockGroup(trx, group)
    await dropReaderIndexes(trx, projections)
    for (const table of new Set(projections.flatMap((p) => p.tables))) await trx.deleteFrom(table).execute()
    await trx.deleteFrom('tessera_checkpoints').where('name', '=', group).execute()
  })
  const projector = createProjector({ batchSize: REPLAY_BATCH, ...options, mode: 'apply' })
  await projector.catchUp()
  await buildDeferredIndexes(db)
  return projector.position()
}
