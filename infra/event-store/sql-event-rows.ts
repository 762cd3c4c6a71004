/// The SQL event store's rows as events, and its stream reads: the columns every read selects, the row
/// made a recorded event (upcast to its type's current shape), and reads of concurrent commands sent
/// as one statement.

import { type Kysely, sql } from 'kysely'
import { upcastEvent } from '../../domain/events.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import type { RecordedEvent } from './event-store.js'

// biome-ignore lint/suspicious/noExplicitAny: the store reads its own tables only
type Db = Kysely<any>

export type EventRow = {
  seq: string
  tx_id: string
  event_id: string
  stream_id: string
  stream_version: number
  type: string
  data: object
  metadata: EventMetadata
  recorded_at: Date
}

// Events of an older version are read in their type's current shape (domain/shared/upcasting.ts).
export const toRecorded = (row: EventRow): RecordedEvent =>
  upcastEvent({
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    position: { tx: BigInt(row.tx_id), seq: BigInt(row.seq) },
    recordedAt: new Date(row.recorded_at),
  })

// The text aliases shadow the columns in ORDER BY, which binds bare names to output columns first:
// order by the qualified columns, or `999` sorts after `1000`.
export const EVENT_COLUMNS = sql.raw(
  'seq::text as seq, tx_id::text as tx_id, event_id::text as event_id, stream_id, stream_version, type, data, metadata, recorded_at',
)

type Read = {
  stream: string
  afterVersion: number
  resolve: (events: RecordedEvent[]) => void
  reject: (error: unknown) => void
}

/**
 * Stream reads asked in one turn of the event loop go as one statement: concurrent commands (each
 * loading its own aggregate) share a round trip instead of one each. Every read still runs after it
 * was asked, so it sees every append that committed before. Each (stream, version) pair is served by
 * the (stream_id, stream_version) unique index: a reader catching up from a version reads only the
 * rows past it, however long the stream.
 */
export const coalescedStreamReads = (db: Db) => {
  let pending: Read[] | null = null
  const run = async (reads: readonly Read[]) => {
    const { rows } = await sql<EventRow & { read: number }>`
      select ${EVENT_COLUMNS}, r.i::integer as read
      from unnest(${reads.map((read) => read.stream)}::text[], ${reads.map((read) => read.afterVersion)}::integer[])
        with ordinality as r(wanted, after_version, i)
      join tessera_events on tessera_events.stream_id = r.wanted
        and tessera_events.stream_version > r.after_version
      order by r.i, tessera_events.stream_version`.execute(db)
    const answers = reads.map((): RecordedEvent[] => [])
    for (const row of rows) answers[row.read - 1]?.push(toRecorded(row))
    for (const [index, read] of reads.entries()) read.resolve(answers[index] ?? [])
  }
  return {
    read(stream: string, afterVersion: number): Promise<RecordedEvent[]> {
      if (!pending) {
        const reads: Read[] = []
        pending = reads
        setImmediate(() => {
          pending = null
          run(reads).catch((error: unknown) => {
            for (const read of reads) read.reject(error)
          })
        })
      }
      const reads = pending
      return new Promise((resolve, reject) => reads.push({ stream, afterVersion, resolve, reject }))
    },
  }
}
