/// The projector's two roles, each one way of moving the checkpoint forward. The applier (this
/// process projects) reads the log after the checkpoint and applies it in batches; the follower
/// (another process projects: `--role api`) only reads that process's stored checkpoint.

import {
  comparePositions,
  type GlobalPosition,
  type RecordedEvent,
} from '../../infra/event-store/event-store.js'
import {
  applyBatchInTransaction,
  applyPreparedInTransaction,
  type Batch,
  type PreparedBatch,
} from './apply-batch.js'
import { catchUpPacer } from './catch-up-pacing.js'
import { readCheckpoint } from './checkpoint-store.js'
import { finishedTransactions } from './database-activity.js'
import { prepareDetached } from './detached-batch.js'
import { logReadingFor } from './projections-for.js'
import { readSkippedEventIds } from './projector-faults.js'
import type { ProjectorOptions } from './projector-types.js'

/** Where this process stands; moving it tells the waiters and the `onApplied` listeners. */
export type CheckpointTracker = {
  current(): GlobalPosition
  advanceTo(position: GlobalPosition, applied: readonly RecordedEvent[]): void
  rewindTo(position: GlobalPosition): void
}

export type ProjectorRole = {
  /**
   * Moves the checkpoint as far as it can now; `suspectId` is an event a projection failed on. Ends
   * early, between batches, once `carryOn` says no (the projector is stopping).
   */
  catchUp(suspectId: string | null, carryOn: () => boolean): Promise<void>
  /** An operator changed the skipped events: read them again before the next batch. */
  forgetSkipped(): void
}

export const checkpointFollower = (
  options: Pick<ProjectorOptions, 'db'> & { group: string },
  tracker: CheckpointTracker,
): ProjectorRole => ({
  async catchUp() {
    tracker.advanceTo(await readCheckpoint(options.db, options.group), [])
  },
  forgetSkipped() {},
})

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

type ApplierOptions = ProjectorOptions & { group: string; batchSize: number }

export const batchApplier = (options: ApplierOptions, tracker: CheckpointTracker): ProjectorRole => {
  const { db, store, group, batchSize } = options
  // Which events' metadata the group's projections read (the others' stays sealed, unopened).
  const logReading = logReadingFor(options.projections)
  const now = options.clock ?? Date.now
  const pacer = catchUpPacer(
    options.pacing ?? null,
    { now, sleep: options.sleep ?? sleep },
    async (position, limit) => (await store.head(position, limit)).eventsAfter,
    () => finishedTransactions(db),
  )
  let skipped: Set<string> | null = null
  /**
   * The read of the batch after the one being applied, started before applying it, and on
   * PostgreSQL that batch prepared (detached-batch.ts) once read, or null when it could not be.
   */
  let ahead: {
    after: GlobalPosition
    read: Promise<RecordedEvent[] | null>
    prepared: Promise<PreparedBatch | null> | null
  } | null = null

  const batchOf = (
    events: readonly RecordedEvent[],
    expected: GlobalPosition,
    skip: ReadonlySet<string>,
  ): Batch => ({
    group,
    projections: options.projections,
    events,
    expected,
    skip,
    singleBackend: options.singleBackend === true,
  })

  /**
   * The batch after `expected`: the read started ahead when it was from there and came back full.
   * A full read of the log is a prefix of what follows `expected` whenever it was made (the log
   * only shows events of finished transactions); a short one may have been cut by the transaction
   * this projector had open then, so it is made again. With it, its prepared writes, unless the
   * skipped events changed since, or a suspect is being isolated.
   */
  const readBatch = async (
    expected: GlobalPosition,
    suspectId: string | null,
  ): Promise<{ read: RecordedEvent[]; prepared: PreparedBatch | null }> => {
    const started = ahead
    ahead = null
    if (started && comparePositions(started.after, expected) === 0) {
      const read = await started.read
      const prepared = await started.prepared
      const usable = suspectId === null && prepared?.batch.skip === skipped
      if (read?.length === batchSize) return { read, prepared: usable ? prepared : null }
    }
    return { read: await store.readAll(expected, batchSize, logReading), prepared: null }
  }

  /**
   * A full batch is likely followed by more (a replay, a catch-up): the next read goes to the
   * database while this batch is applied, so that the log's decoding in Node and the batch's writes
   * in the database overlap; so does the next batch's projecting and planning, once read. A failed
   * read only means reading again.
   */
  const readAhead = (read: readonly RecordedEvent[], suspectId: string | null, skip: ReadonlySet<string>) => {
    const last = read.at(-1)
    if (suspectId !== null || read.length < batchSize || !last) return
    const next = store.readAll(last.position, batchSize, logReading).catch(() => null)
    const prepare = (events: RecordedEvent[] | null) =>
      events?.length === batchSize ? prepareDetached(db, batchOf(events, last.position, skip)) : null
    // PGlite's one connection serves one transaction at a time: nothing to overlap there.
    ahead = { after: last.position, read: next, prepared: options.singleBackend ? null : next.then(prepare) }
  }

  /**
   * Applies the batch, its writes prepared or not; the next batch's preparing is awaited too, so
   * that it runs while the database applies this one. A batch that failed or found the checkpoint
   * moved leaves nothing prepared behind it.
   */
  const applyRead = async (batch: Batch, prepared: PreparedBatch | null) => {
    const applying = prepared ? applyPreparedInTransaction(db, prepared) : applyBatchInTransaction(db, batch)
    try {
      const [movedTo] = await Promise.all([applying, ahead?.prepared])
      if (movedTo) ahead = null
      return movedTo
    } catch (error) {
      ahead = null
      throw error
    }
  }

  /**
   * Another instance moved the stored checkpoint from `expected` to `stored` while we read `batch`.
   * Ahead: the events of the batch it covers are in the read models, and listeners here (caches)
   * must hear of them as if we had applied them. Behind: the read models were reset (`replay`), so
   * this instance continues from there too.
   */
  const adopt = (stored: GlobalPosition, expected: GlobalPosition, batch: readonly RecordedEvent[]) => {
    if (comparePositions(stored, expected) < 0) return tracker.rewindTo(stored)
    const covered = batch.filter((event) => comparePositions(event.position, stored) <= 0)
    const reached = covered.at(-1)
    // Only a log that lost events could leave nothing covered; then trust the stored checkpoint.
    if (reached) tracker.advanceTo(reached.position, covered)
    else tracker.advanceTo(stored, [])
  }

  /**
   * Caught up with the log, the read models can still be behind us: a replay emptied them and their
   * checkpoint (and may have died before rebuilding them). Then continue from the stored checkpoint.
   */
  const rewoundUnderUs = async (): Promise<boolean> => {
    const stored = await readCheckpoint(db, group)
    if (comparePositions(stored, tracker.current()) >= 0) return false
    tracker.rewindTo(stored)
    return true
  }

  /**
   * After a projection failed on an event, the events before it go first, in a batch of their own,
   * and the suspect alone after them: a poison event holds back nothing that precedes it.
   */
  const withoutSuspect = (batch: RecordedEvent[], suspectId: string | null): RecordedEvent[] => {
    const at = suspectId ? batch.findIndex((event) => event.id === suspectId) : -1
    return at === -1 ? batch : batch.slice(0, Math.max(1, at))
  }

  /**
   * Applies one batch; returns whether the log may hold more right now. A full read may be followed
   * by more; a short one that was applied as read reached the end of what was readable, and a commit
   * after that read wakes the projector again, so reading once more would only cost every command
   * two more queries.
   */
  const applyBatch = async (suspectId: string | null): Promise<boolean> => {
    skipped ??= await readSkippedEventIds(db, group)
    const skip = skipped
    const expected = tracker.current()
    const { read, prepared } = await readBatch(expected, suspectId)
    const batch = withoutSuspect(read, suspectId)
    const last = batch.at(-1)
    if (!last) return rewoundUnderUs()
    readAhead(read, suspectId, skip)
    const movedTo = await applyRead(batchOf(batch, expected, skip), prepared)
    if (movedTo) {
      adopt(movedTo, expected, batch)
      return true
    }
    tracker.advanceTo(last.position, batch)
    return read.length === batchSize || batch.length < read.length
  }

  return {
    async catchUp(suspectId, carryOn) {
      // The suspect stays set for the whole run: first the batch before it, then it alone.
      for (let startedAt = now(); await applyBatch(suspectId); startedAt = now()) {
        await pacer.restAfter(startedAt, tracker.current())
        // Each batch is committed with its checkpoint: a stop between two loses nothing, and a paced
        // catch-up could otherwise hold a stopping process for minutes.
        if (!carryOn()) return
      }
    },
    forgetSkipped() {
      skipped = null
    },
  }
}
