/// The projector's port: its options, its status and what callers may do with it (projector.ts).

import type { Kysely } from 'kysely'
import type { EventStore, GlobalPosition, RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'
import type { CatchUpPacing } from './catch-up-pacing.js'
import type { ProjectorFault } from './projector-faults.js'

export type ProjectorLogger = { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }

export type ProjectorStatus = {
  group: string
  mode: 'apply' | 'follow'
  /** `retrying`: the last batch failed and the next try waits for its backoff. */
  state: 'running' | 'retrying' | 'halted' | 'stopped'
  position: GlobalPosition
  /** Failed attempts since the last successful run. */
  failures: number
  /** Failed attempts since the process started (a counter for metrics). */
  failuresTotal: number
  lastError: string | null
  fault: ProjectorFault | null
}

export type ProjectorOptions = {
  db: Kysely<Database>
  store: EventStore
  projections: readonly Projection[]
  /** Name of the checkpoint; one group of projections shares it. */
  group?: string
  /** `apply`: this process projects. `follow`: another process does; only track its checkpoint. */
  mode?: 'apply' | 'follow'
  batchSize?: number
  /** Safety net besides commit notifications; also how often a halted group looks for an operator's retry. */
  pollIntervalMs?: number
  /** Attempts at one event before the group halts (default 5). */
  maxAttempts?: number
  /**
   * First retry delay; doubles with each failure up to 30 s after a projection's failure, 2 s after
   * the database's (default 500 ms).
   */
  retryBaseMs?: number
  logger?: ProjectorLogger
  /**
   * The database is one backend that lends its one connection to one transaction at a time
   * (PGlite). A lock a backend takes never blocks that same backend, so there the group's lock
   * and the checkpoint's row lock would only cost two statements per batch; they are skipped.
   */
  singleBackend?: boolean
  /** Milliseconds since the epoch; injected so that backoff and pacing can be tested without waiting. */
  clock?: () => number
  /** Waits `ms`; injected so that pacing can be tested without waiting. */
  sleep?: (ms: number) => Promise<void>
  /**
   * Rests between batches while far behind the log (catch-up-pacing.ts): for a process that only
   * projects while others serve. Default none: a replay, or a server that catches up before it
   * serves, has no one to make room for.
   */
  pacing?: CatchUpPacing | null
}

export type Projector = {
  start(): Promise<void>
  stop(): Promise<void>
  /** Applies everything readable now; resolves when caught up. */
  catchUp(): Promise<void>
  /** Resolves true once the read models include `position`; false after `timeoutMs`, or at once when halted. */
  waitFor(position: GlobalPosition, timeoutMs?: number): Promise<boolean>
  position(): GlobalPosition
  status(): ProjectorStatus
  /** Clears this group's fault (here and in the database) and tries again. */
  retry(): Promise<void>
  /**
   * Called after each committed batch, with its events (used to invalidate caches). In `apply` mode
   * this includes batches another instance of the group committed; a `follow` projector reads no
   * events and never calls it. A listener that throws is logged and does not stop the projector.
   */
  onApplied(listener: AppliedListener): () => void
}

/**
 * A committed batch's events, in log order, and `from`: the checkpoint they follow with no event
 * between (the log's events after `from` begin with them), when the projector knows it.
 */
export type AppliedListener = (events: readonly RecordedEvent[], from?: GlobalPosition) => void
