/// The projector's two roles, each one way of moving the checkpoint forward. The applier (this
/// process projects) reads the log after the checkpoint and applies it in batches; the follower
/// (another process projects: `--role api`) only reads that process's stored checkpoint.

import {
  comparePositions,
  type GlobalPosition,
  type RecordedEvent,
} from '../../infra/event-store/event-store.js'
import { applyBatchInTransaction } from './apply-batch.js'
import { readCheckpoint } from './checkpoint-store.js'
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
  /** Moves the checkpoint as far as it can now; `suspectId` is an event a projection failed on. */
  catchUp(suspectId: string | null): Promise<void>
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

type ApplierOptions = ProjectorOptions & { group: string; batchSize: number }

export const batchApplier = (options: ApplierOptions, tracker: CheckpointTracker): ProjectorRole => {
  const { db, store, group, batchSize } = options
  let skipped: Set<string> | null = null
  /** The read of the batch after the one being applied, started before applying it. */
  let ahead: { after: GlobalPosition; read: Promise<RecordedEvent[] | null> } | null = null

  /**
   * The batch after `expected`: the read started ahead when it was from there and came back full.
   * A full read of the log is a prefix of what follows `expected` whenever it was made (the log
   * only shows events of finished transactions); a short one may have been cut by the transaction
   * this projector had open then, so it is made again.
   */
  const readBatch = async (expected: GlobalPosition): Promise<RecordedEvent[]> => {
    const started = ahead
    ahead = null
    if (started && comparePositions(started.after, expected) === 0) {
      const read = await started.read
      if (read?.length === batchSize) return read
    }
    return store.readAll(expected, batchSize, logReadingFor(options.projections))
  }

  /**
   * A full batch is likely followed by more (a replay, a catch-up): the next read goes to the
   * database while this batch is applied, so that the log's decoding in Node and the batch's writes
   * in the database overlap. Its failure only means reading again.
   */
  const readAhead = (read: readonly RecordedEvent[], suspectId: string | null) => {
    const last = read.at(-1)
    if (suspectId !== null || read.length < batchSize || !last) return
    ahead = {
      after: last.position,
      read: store.readAll(last.position, batchSize, logReadingFor(options.projections)).catch(() => null),
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
    const expected = tracker.current()
    const read = await readBatch(expected)
    const batch = withoutSuspect(read, suspectId)
    const last = batch.at(-1)
    if (!last) return rewoundUnderUs()
    readAhead(read, suspectId)
    const movedTo = await applyBatchInTransaction(db, {
      group,
      projections: options.projections,
      events: batch,
      expected,
      skip: skipped,
      singleBackend: options.singleBackend === true,
    })
    if (movedTo) {
      adopt(movedTo, expected, batch)
      return true
    }
    tracker.advanceTo(last.position, batch)
    return read.length === batchSize || batch.length < read.length
  }

  return {
    async catchUp(suspectId) {
      // The suspect stays set for the whole run: first the batch before it, then it alone.
      while (await applyBatch(suspectId)) {}
    },
    forgetSkipped() {
      skipped = null
    },
  }
}
