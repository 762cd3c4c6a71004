/// The event store on KurrentDB (experimental: it has not run against a real server in this
/// project's CI). Aggregate streams map one to one (stream-names.ts); versions and positions too
/// (versions-and-positions.ts). What KurrentDB gives natively: optimistic concurrency per stream
/// (expected revisions), one global order (`$all`, which a reader never sees out of commit order),
/// idempotent appends by event id, catch-up subscriptions. What is built on it: unique claims
/// (claims.ts), the hook the SQL store runs inside its append transaction (`inline`, run by
/// append-effects.ts after the append, exactly once and repaired after a crash), and
/// read-your-writes through the exact `$all` position of the append's last event. Personal data
/// arrives sealed (the encrypting decorator wraps this store as it wraps the SQL one).

import { EventEmitter } from 'node:events'
import type { Kysely } from 'kysely'
import {
  type AppendResult,
  comparePositions,
  type EventStore,
  type GlobalPosition,
  passingOver,
  START,
  type UniqueClaim,
} from '../event-store.js'
import type { InlineProjection } from '../sql-event-store.js'
import { type AppendEffects, createAppendEffects } from './append-effects.js'
import { type Claims, createClaims, type Reserved } from './claims.js'
import { recordedEventOf, recordOf } from './envelope.js'
import {
  type AppendOutcome,
  type KurrentLog,
  type LogRecord,
  type NewRecord,
  type StreamState,
  StreamStateMismatch,
  type Subscription,
} from './kurrent-log.js'
import { DEFAULT_NAMESPACE, type StreamNames, streamNames } from './stream-names.js'
import {
  concurrencyErrorOf,
  globalPositionOf,
  logPositionOf,
  revisionOf,
  streamStateFor,
  versionOf,
} from './versions-and-positions.js'

/** The SQL store's inline hook and the database of the read models it writes to. */
export type InlineHook = {
  // biome-ignore lint/suspicious/noExplicitAny: the hook's tables and the checkpoints table
  db: Kysely<any>
  hook: InlineProjection
}

export type KurrentDbEventStoreOptions = {
  log: KurrentLog
  namespace?: string
  /** An unconfirmed claim holds this long before it counts as orphaned (default 60 s). */
  claimGraceMs?: number
  /** Bound on one append (default 10 s); the grace period must exceed two of them. */
  appendDeadlineMs?: number
  inline?: InlineHook
  now?: () => number
}

/** `head` counts at most this many events past a position, a page at a time. */
export const HEAD_COUNT_LIMIT = 10_000
const HEAD_PAGE = 1000

export const DEFAULT_CLAIM_GRACE_MS = 60_000
export const DEFAULT_APPEND_DEADLINE_MS = 10_000

/** The append's outcome is unknown (the server did not answer in time). It may have landed. */
export class AppendOutcomeUnknownError extends Error {
  override readonly name = 'AppendOutcomeUnknownError'
  constructor(
    readonly stream: string,
    override readonly cause: unknown,
  ) {
    super(
      `KurrentDB did not confirm the append to ${stream} (retried once with the same event ids); it may have been written`,
    )
  }
}

/** Errors after which the append may or may not have been written. */
export const outcomeUnknown = (error: unknown): boolean => {
  const type = (error as { type?: unknown } | null)?.type
  return type === 'unavailable' || type === 'deadline-exceeded' || type === 'timeout' || type === 'not-leader'
}

export const createKurrentDbEventStore = (
  options: KurrentDbEventStoreOptions,
): EventStore & {
  readonly names: StreamNames
  readonly claims: Claims
} => {
  const { log, now = Date.now } = options
  const names = streamNames(options.namespace ?? DEFAULT_NAMESPACE)
  const graceMs = options.claimGraceMs ?? DEFAULT_CLAIM_GRACE_MS
  const deadlineMs = options.appendDeadlineMs ?? DEFAULT_APPEND_DEADLINE_MS
  // An append is tried twice; a reservation must outlive both tries before anyone may take it over.
  if (graceMs <= 2 * deadlineMs)
    throw new Error(
      `the claim grace period (${graceMs} ms) must exceed two append deadlines (${2 * deadlineMs} ms)`,
    )
  const claims = createClaims({ log, names, graceMs, now })
  const commits = new EventEmitter()
  commits.setMaxListeners(0)
  const notify = () => commits.emit('commit')
  let subscription: Subscription | null = null

  const toEvents = (records: readonly LogRecord[]) =>
    records.flatMap((record) => recordedEventOf(record, names) ?? [])

  const readLog = async (after: GlobalPosition, limit: number) =>
    limit < 1
      ? []
      : toEvents(
          await log.readAll({ after: logPositionOf(after), prefix: names.eventPrefix, maxCount: limit }),
        )

  const effects: AppendEffects | null = options.inline
    ? createAppendEffects({ db: options.inline.db, hook: options.inline.hook, read: readLog })
    : null

  const readAll = async (after: GlobalPosition, limit: number) => {
    if (!effects) return readLog(after, limit)
    // Nothing past the inline hook's checkpoint: its writes come before the projector's.
    const horizon = await effects.catchUp()
    return (await readLog(after, limit)).filter((event) => comparePositions(event.position, horizon) <= 0)
  }

  /** Written once or not at all: a retry after an unknown outcome carries the same event ids. */
  const appendOnce = async (
    stream: string,
    records: readonly NewRecord[],
    state: StreamState,
  ): Promise<AppendOutcome> => {
    try {
      return await log.append(stream, records, state)
    } catch (error) {
      if (!outcomeUnknown(error)) throw error
    }
    try {
      return await log.append(stream, records, state)
    } catch (error) {
      if (error instanceof StreamStateMismatch) {
        // The first try may have landed: then the stream holds our first event at the next revision.
        const first = records[0]
        const landed = first && (await log.readStream(stream)).find((record) => record.id === first.id)
        if (landed) return { nextRevision: landed.revision + BigInt(records.length - 1), position: null }
      }
      throw outcomeUnknown(error) ? new AppendOutcomeUnknownError(stream, error) : error
    }
  }

  /**
   * The `$all` position of the append's last event, read back from the stream: what read-your-writes
   * waits for the projector's checkpoint to reach (the append's answer may name its commit only).
   */
  const positionOfAppend = async (stream: string, written: AppendOutcome): Promise<GlobalPosition> => {
    const [last] = toEvents(
      await log.readStream(names.eventStream(stream), { from: written.nextRevision, maxCount: 1 }),
    )
    if (last && last.position !== START) return last.position
    if (written.position) return globalPositionOf(written.position)
    throw new Error(`KurrentDB gave no position for the append to ${stream}`)
  }

  const store: ReturnType<typeof createKurrentDbEventStore> = {
    names,
    claims,

    // Each stream's append carries its own claims and reservations; KurrentDB's multi-stream append
    // has no place for them, so the streams are appended one after another, as the port allows.
    async appendToStreams(appends) {
      const results: AppendResult[] = []
      for (const { stream, events, options } of appends)
        results.push(await store.appendToStream(stream, events, options))
      return results
    },

    async appendToStream(stream, events, { expectedVersion, uniqueClaims = [] }): Promise<AppendResult> {
      const [first] = events
      if (!first) throw new Error('appendToStream needs at least one event')
      const kurrentStream = names.eventStream(stream)
      const state = streamStateFor(expectedVersion)
      if (state === null) {
        const last = await log.readLast(kurrentStream)
        throw concurrencyErrorOf(stream, expectedVersion, { actual: last ? last.revision : 'no_stream' })
      }
      const operations: UniqueClaim[] = [...uniqueClaims]
      const reserved: Reserved | null =
        operations.length > 0 ? await claims.reserve(operations, stream, first.id) : null
      const records = events.map((event, index) => recordOf(event, index === 0 ? operations : []))
      let written: AppendOutcome
      try {
        written = await appendOnce(kurrentStream, records, state)
      } catch (error) {
        // A definite refusal undoes the reservations; an unknown outcome leaves them to the repair.
        if (reserved && !(error instanceof AppendOutcomeUnknownError)) await claims.undo(reserved)
        if (error instanceof StreamStateMismatch) throw concurrencyErrorOf(stream, expectedVersion, error)
        throw error
      }
      if (reserved) await claims.release(operations, reserved)
      const position = await positionOfAppend(stream, written)
      // Not atomic with the append: a crash before this pass is repaired by the next one.
      await effects?.catchUp()
      notify()
      return { nextVersion: versionOf(written.nextRevision), position }
    },

    // Version n is revision n - 1: the events after version n start at revision n.
    readStream: async (stream, { afterVersion = 0 } = {}) =>
      toEvents(
        await log.readStream(
          names.eventStream(stream),
          afterVersion > 0 ? { from: revisionOf(afterVersion + 1) } : {},
        ),
      ),

    readAll,

    readAllOpening: async (after, limit, open) => passingOver(await readAll(after, limit), open),

    async head(after, countLimit) {
      // The end of `$all` filtered to Tessera's streams: reservations are not events of the log.
      const last = await log.readLastOfAll(names.eventPrefix)
      const position = last?.position ? globalPositionOf(last.position) : START
      if (comparePositions(position, after) <= 0)
        return { position, eventsAfter: 0, oldestAfterSeconds: 0, heldBack: 0 }
      // Counting reads each event over the network: bounded lower than a SQL count.
      const limit = Math.min(countLimit, HEAD_COUNT_LIMIT)
      const pending: LogRecord[] = []
      for (let from = logPositionOf(after); pending.length < limit; ) {
        const page = await log.readAll({
          after: from,
          prefix: names.eventPrefix,
          maxCount: Math.min(HEAD_PAGE, limit - pending.length),
        })
        pending.push(...page)
        const end = page.at(-1)?.position
        if (!end || page.length < HEAD_PAGE) break
        from = end
      }
      const oldest = pending[0]
      // Past the inline hook's checkpoint, `readAll` holds events back until the hook has run.
      const horizon = effects ? await effects.checkpoint() : null
      return {
        position,
        eventsAfter: pending.length,
        oldestAfterSeconds: oldest ? Math.max(0, (now() - oldest.created.getTime()) / 1000) : 0,
        heldBack: horizon
          ? pending.filter(
              (record) => record.position && comparePositions(globalPositionOf(record.position), horizon) > 0,
            ).length
          : 0,
      }
    },

    claimOwner: (scope, value) => claims.ownerOf(scope, value),

    subscribe(listener) {
      // Commits of other processes arrive through one catch-up subscription to `$all`, opened with
      // the first listener: it only wakes (the projector reads the log itself, from its checkpoint).
      subscription ??= log.subscribe(names.eventPrefix, notify)
      commits.on('commit', listener)
      return () => commits.off('commit', listener)
    },

    async close() {
      commits.removeAllListeners()
      await subscription?.stop()
      subscription = null
      await log.close()
    },
  }
  return store
}
