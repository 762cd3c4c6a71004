/// The event store port. Adapters: PostgreSQL and embedded PGlite (one SQL implementation,
/// `sql-event-store.ts`) and KurrentDB (`kurrentdb/`). Every adapter passes `event-store.contract.ts`.

import type { DomainEvent } from '../../domain/shared/event.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'

/**
 * A point in the global order. Two parts because both back ends order that way: PostgreSQL by
 * (transaction id, sequence), KurrentDB by (commit, prepare). Compare with `comparePositions`.
 */
export type GlobalPosition = { readonly tx: bigint; readonly seq: bigint }

export const START: GlobalPosition = { tx: 0n, seq: 0n }

export const comparePositions = (a: GlobalPosition, b: GlobalPosition): number =>
  a.tx === b.tx ? (a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1) : a.tx < b.tx ? -1 : 1

export const formatPosition = (p: GlobalPosition): string => `${p.tx}:${p.seq}`

export const parsePosition = (text: string): GlobalPosition | null => {
  const match = /^(\d+):(\d+)$/.exec(text)
  return match?.[1] && match[2] ? { tx: BigInt(match[1]), seq: BigInt(match[2]) } : null
}

/** `no_stream`: the stream must not exist. `any`: no check. A number: the stream's current version. */
export type ExpectedVersion = 'no_stream' | 'any' | number

/**
 * A uniqueness claim applied atomically with the events: `claim` takes `value` in `scope` for
 * `owner` (fails if another owner holds it), `release` gives it up (only if `owner` holds it).
 */
export type UniqueClaim = {
  op: 'claim' | 'release'
  scope: string
  value: string
  owner: string
}

export type EventToAppend = DomainEvent & { id: string; metadata: EventMetadata }

export type RecordedEvent = EventToAppend & {
  streamId: string
  /** 1-based position of the event inside its stream. */
  streamVersion: number
  position: GlobalPosition
  recordedAt: Date
}

export type AppendOptions = {
  expectedVersion: ExpectedVersion
  uniqueClaims?: readonly UniqueClaim[]
}

export type AppendResult = {
  /** The stream's version after the append. */
  nextVersion: number
  /** Global position of the last appended event. */
  position: GlobalPosition
}

/**
 * An event `readAllOpening` passed over: its place in the log and what it is, without its data or
 * metadata (never opened, so never decrypted). `data` and `metadata` are typed absent: a handler
 * that takes a `RecordedEvent` cannot be handed one, and `isOpened` tells the two apart.
 */
export type PassedOverEvent = Pick<
  RecordedEvent,
  'id' | 'type' | 'streamId' | 'streamVersion' | 'position' | 'recordedAt'
> & { data?: never; metadata?: never }

/** What `readAllOpening` gives: the events it opened, and the places of those it passed over. */
export type LogEntry = RecordedEvent | PassedOverEvent

export const isOpened = (entry: LogEntry): entry is RecordedEvent => entry.data !== undefined

/** An adapter that opens nothing (or everything alike) passes over by dropping what is not asked for. */
export const passingOver = (events: readonly RecordedEvent[], open: (type: string) => boolean): LogEntry[] =>
  events.map((event) => (open(event.type) ? event : passedOver(event)))

export const passedOver = (event: RecordedEvent): PassedOverEvent => ({
  id: event.id,
  type: event.type,
  streamId: event.streamId,
  streamVersion: event.streamVersion,
  position: event.position,
  recordedAt: event.recordedAt,
})

/** The end of the log, and what of it lies past a reader's position: what lag reports show. */
export type LogHead = {
  /** The last committed event's position; START when the log is empty. */
  position: GlobalPosition
  /** Committed events past the reader's position, counted up to the limit asked. */
  eventsAfter: number
  /** Age of the oldest of them, in seconds by the store's clock; 0 when there is none. */
  oldestAfterSeconds: number
  /** Of `eventsAfter`, those `readAll` does not return yet (something older is still settling). */
  heldBack: number
}

export type ReadStreamOptions = {
  /** Only the events whose stream version is greater than this (0: the whole stream). */
  afterVersion?: number
  /**
   * The caller reads no metadata's personal fields (a decider folding the stream): a store that
   * seals them (personal-data/encrypting-event-store.ts) gives them null instead of opening each.
   */
  withoutPersonalMetadata?: boolean
}

export type ReadAllOptions = {
  /**
   * The types whose metadata's personal fields the caller reads (a projector: those some projection
   * of its group reads them for). A store that seals them (personal-data/encrypting-event-store.ts)
   * gives the other events' null instead of opening each; the rest of every event reads as before.
   * None: every type's.
   */
  personalMetadataOf?: (type: string) => boolean
}

/** One stream's part of `appendToStreams`. */
export type StreamAppend = {
  stream: string
  events: readonly EventToAppend[]
  options: AppendOptions
}

export interface EventStore {
  appendToStream(
    stream: string,
    events: readonly EventToAppend[],
    options: AppendOptions,
  ): Promise<AppendResult>
  /**
   * Appends to several streams, in the order given, each with its own expected version and claims;
   * the results in the same order. On the SQL store it is one transaction: all of it commits or
   * none, and readers see it at once (the projector applies it as one batch). A store that cannot
   * append to two streams atomically appends them one after another and stops at the first failure,
   * so callers use it only where what came before may stand alone (a new user, then their session).
   */
  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]>
  /**
   * The stream in order; an empty array when it does not exist. With `afterVersion`, only the events
   * past that version (a reader that folded the stream up to it catches up with what came since).
   */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>
  /**
   * Committed events after `after` in the one global order, at most `limit`. Never returns an
   * event while an earlier one (in that order) may still commit: no reader skips an event.
   */
  readAll(after: GlobalPosition, limit: number, options?: ReadAllOptions): Promise<RecordedEvent[]>
  /**
   * `readAll`'s events (the same ones, in the same order, held back alike), opening only those whose
   * type `open` accepts; the others come as `PassedOverEvent`. For a log follower that acts on a few
   * types (the mail reactor): a store that seals personal data decrypts none of the rest.
   */
  readAllOpening(after: GlobalPosition, limit: number, open: (type: string) => boolean): Promise<LogEntry[]>
  /**
   * The end of the log and how much of it is past `after` (counted up to `countLimit`; an adapter
   * may count fewer when counting costs a read of each event). Reads only: it wakes no one.
   */
  head(after: GlobalPosition, countLimit: number): Promise<LogHead>
  /** Who holds `value` in `scope`, if anyone. */
  claimOwner(scope: string, value: string): Promise<string | null>
  /** Calls `listener` after events commit (in this process, or in another one when the adapter can tell). */
  subscribe(listener: () => void): () => void
  close(): Promise<void>
}

/// Typed failures of the port. Nothing is written when one is thrown.

export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError'
  constructor(
    readonly stream: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${stream}: expected version ${String(expected)}, found ${String(actual)}`)
  }
}

export class UniqueClaimConflictError extends Error {
  override readonly name = 'UniqueClaimConflictError'
  constructor(
    readonly scope: string,
    readonly value: string,
  ) {
    super(`The value is already claimed in scope ${scope}`)
  }
}
