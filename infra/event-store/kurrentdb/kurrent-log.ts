/// What the KurrentDB event store needs from KurrentDB, in its own small terms: append to one
/// stream under an expected state, read one stream, read `$all` after a position (or its end)
/// filtered by a stream prefix, and a catch-up subscription. `kurrent-client-log.ts` implements it on
/// `@kurrent/kurrentdb-client`; the adapter's logic (claims, repair, positions) is written against
/// this type only.

/** A position in `$all`: KurrentDB orders by (commit, prepare). */
export type LogPosition = { readonly commit: bigint; readonly prepare: bigint }

/** `no_stream`, `any`, or the 0-based revision of the stream's last event. */
export type StreamState = 'no_stream' | 'any' | bigint

export type NewRecord = { id: string; type: string; data: object; metadata: object }

export type LogRecord = {
  stream: string
  id: string
  type: string
  /** 0-based revision inside its stream. */
  revision: bigint
  data: unknown
  metadata: unknown
  /** The server's clock when the record was written. */
  created: Date
  /** Present on `$all` reads; on stream reads when the server sends it. */
  position: LogPosition | null
}

export type AppendOutcome = {
  /** Revision of the stream's last event after the append. */
  nextRevision: bigint
  /** As the server reports it, when it does. */
  position: LogPosition | null
}

export type Subscription = { stop(): Promise<void> }

export interface KurrentLog {
  /** Throws `StreamStateMismatch` when the stream is not in `expected`; nothing is written then. */
  append(stream: string, records: readonly NewRecord[], expected: StreamState): Promise<AppendOutcome>
  /** The stream's records in order (from `from`, at most `maxCount`); [] when it does not exist. */
  readStream(stream: string, options?: { from?: bigint; maxCount?: number }): Promise<LogRecord[]>
  /** The last record of the stream, or null when it does not exist. */
  readLast(stream: string): Promise<LogRecord | null>
  /** Records of streams starting with `prefix`, strictly after `after` (null: from the start). */
  readAll(options: { after: LogPosition | null; prefix: string; maxCount: number }): Promise<LogRecord[]>
  /** The last record in `$all` of a stream starting with `prefix`, or null when there is none. */
  readLastOfAll(prefix: string): Promise<LogRecord | null>
  /** Calls `onRecord` for each record written from now on to a stream starting with `prefix`. */
  subscribe(prefix: string, onRecord: (record: LogRecord) => void): Subscription
  close(): Promise<void>
}

export class StreamStateMismatch extends Error {
  override readonly name = 'StreamStateMismatch'
  constructor(
    readonly stream: string,
    readonly expected: StreamState,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`KurrentDB stream ${stream}: expected ${String(expected)}, found ${String(actual)}`)
  }
}

export const compareLogPositions = (a: LogPosition, b: LogPosition): number =>
  a.commit === b.commit
    ? a.prepare === b.prepare
      ? 0
      : a.prepare < b.prepare
        ? -1
        : 1
    : a.commit < b.commit
      ? -1
      : 1

/**
 * A forward read of `$all` from a position includes the record at that position; the port promises
 * records strictly after it. So the client asks for one more and drops what is not after `after`.
 */
export const strictlyAfter = (
  records: readonly LogRecord[],
  after: LogPosition | null,
  maxCount: number,
): LogRecord[] =>
  records
    .filter(
      (record) => after === null || (record.position && compareLogPositions(record.position, after) > 0),
    )
    .slice(0, maxCount)
