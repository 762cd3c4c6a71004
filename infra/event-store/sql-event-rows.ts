/// The SQL event store's rows as events, and its stream reads: the columns every read selects, the row
/// made a recorded event (upcast to its type's current shape), and reads of concurrent commands sent
/// as one statement.

import { CompiledQuery, type Kysely } from 'kysely'
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
export const EVENT_COLUMNS =
  'seq::text as seq, tx_id::text as tx_id, event_id::text as event_id, stream_id, stream_version, type, data, metadata, recorded_at'

/** A data key's row as `tessera_data_keys` holds it (personal-data/keyring.ts opens it). */
export type KeyRow = { subject: string; wrapped_key: string | null; wrapped_by: string | null }

/**
 * A stream's events with the data-key rows of the people its events name in `data.userId` (null:
 * no row, the person never had a key), read in the same statement: what opening them needs, without
 * a second round trip. Other subjects are not there: the reader looks their keys up as before.
 */
export type KeyedStreamRead = { events: RecordedEvent[]; keys: Map<string, KeyRow | null> }

type Read = {
  stream: string
  afterVersion: number
  resolve: (read: KeyedStreamRead) => void
  reject: (error: unknown) => void
}

type KeyedRow = EventRow & {
  read: number
  key_subject: string | null
  wrapped_key: string | null
  wrapped_by: string | null
  has_key_row: boolean
}

/** The coalesced read's text: `$1` the streams, `$2` the version each is read after (see below). */
export const coalescedReadText = (withKeys: boolean): string => {
  const keyColumns = withKeys
    ? `, tessera_events.data->>'userId' as key_subject, k.wrapped_key, k.wrapped_by, k.subject is not null as has_key_row`
    : ''
  const keyJoin = withKeys
    ? `left join lateral (select subject, wrapped_key, wrapped_by from tessera_data_keys
        where tessera_data_keys.subject = tessera_events.data->>'userId' limit 1) k on true`
    : ''
  // The arrays come through sub-selects, so that PostgreSQL keeps the statement's generic plan:
  // a custom plan sees how many streams are read and, with its planning charged, always looked
  // cheaper than a generic one, which must guess; behind a sub-select both guess the same, and the
  // statement is planned once per connection instead of on every read (plancache.c,
  // choose_custom_plan). A generic plan guesses the streams' events from the log's statistics, and
  // as a plain join it once hashed the whole log for a few streams: each stream (and each data key)
  // is therefore read in a lateral sub-query whose order (or limit) keeps it from being folded into
  // the join, so every plan reads a stream through the (stream_id, stream_version) index.
  return `
      select ${EVENT_COLUMNS}, r.i::integer as read${keyColumns}
      from unnest((select $1::text[]), (select $2::integer[])) with ordinality as r(wanted, after_version, i)
      cross join lateral (select seq, tx_id, event_id, stream_id, stream_version, type, data, metadata,
          recorded_at from tessera_events
        where tessera_events.stream_id = r.wanted and tessera_events.stream_version > r.after_version
        order by tessera_events.stream_version) tessera_events
      ${keyJoin}
      order by r.i, tessera_events.stream_version`
}

/**
 * Stream reads asked in one turn of the event loop go as one statement: concurrent commands (each
 * loading its own aggregate) share a round trip instead of one each. Every read still runs after it
 * was asked, so it sees every append that committed before. Each (stream, version) pair is served by
 * the (stream_id, stream_version) unique index: a reader catching up from a version reads only the
 * rows past it, however long the stream. `withKeys`: each event row brings the data-key row of the
 * person in its `data.userId` (`tessera_data_keys`, personal-data/schema.ts), seen in the same
 * snapshot as the events, so an erasure committed with an event is seen with it.
 */
export const coalescedStreamReads = (db: Db, withKeys = false) => {
  let pending: Read[] | null = null
  // The text is made once: the `sql` tag built and compiled it again for every read.
  const text = coalescedReadText(withKeys)
  const run = async (reads: readonly Read[]) => {
    const streams = reads.map((read) => read.stream)
    const afterVersions = reads.map((read) => read.afterVersion)
    const { rows } = await db.executeQuery(
      CompiledQuery.raw(text, [streams, afterVersions]) as CompiledQuery<KeyedRow>,
    )
    const answers = reads.map((): KeyedStreamRead => ({ events: [], keys: new Map() }))
    for (const row of rows) {
      const answer = answers[row.read - 1]
      if (!answer) continue
      answer.events.push(toRecorded(row))
      if (withKeys && row.key_subject !== null && !answer.keys.has(row.key_subject)) {
        const { key_subject: subject, wrapped_key, wrapped_by } = row
        answer.keys.set(subject, row.has_key_row ? { subject, wrapped_key, wrapped_by } : null)
      }
    }
    for (const [index, read] of reads.entries())
      read.resolve(answers[index] ?? { events: [], keys: new Map() })
  }
  const readKeyed = (stream: string, afterVersion: number): Promise<KeyedStreamRead> => {
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
  }
  return {
    readKeyed,
    read: async (stream: string, afterVersion: number): Promise<RecordedEvent[]> =>
      (await readKeyed(stream, afterVersion)).events,
  }
}
