/// Moving the event store's tables from one database to another without `pg_dump`: a position is
/// (transaction id, sequence) and transaction ids belong to one cluster, so copied rows would sit
/// above (or below) every id a new cluster hands out and its readers would skip them or everything
/// written after them. Rows are read as stored (sealed personal data stays sealed, data keys stay
/// wrapped, claim values stay hashed) and written back under the importing transaction's id, in the
/// old global order, so the new positions keep that order.

import { type Kysely, sql, type Transaction } from 'kysely'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import { comparePositions, type GlobalPosition, START } from './event-store.js'
import type { EventRow } from './sql-event-rows.js'

// biome-ignore lint/suspicious/noExplicitAny: the store's own tables, read and written raw
type Db = Kysely<any>
// biome-ignore lint/suspicious/noExplicitAny: as above
type Trx = Transaction<any>

/** One event exactly as the log holds it; `position` is the one it had in the source database. */
export type StoredEvent = {
  id: string
  streamId: string
  streamVersion: number
  type: string
  /** Personal fields are still sealed under their subject's data key. */
  data: object
  metadata: EventMetadata
  recordedAt: string
  position: GlobalPosition
}

/**
 * A subject's data key, still wrapped under the secret that wrapped it (`wrappedBy` names which), or
 * its tombstone (`wrappedKey` null, `erasedAt` set): an erased subject must never get a fresh key.
 */
export type StoredDataKey = {
  subject: string
  wrappedKey: string | null
  wrappedBy: string | null
  erasedAt: string | null
  createdAt: string
}

type DataKeyRow = {
  subject: string
  wrapped_key: string | null
  wrapped_by: string | null
  erased_at: Date | null
  created_at: Date
}

/** A unique claim; `value` is the keyed hash the store keeps, never the claimed value. */
export type StoredClaim = { scope: string; value: string; owner: string }

export const readDataKeys = async (db: Db): Promise<StoredDataKey[]> => {
  const { rows } = await sql<DataKeyRow>`
    select subject, wrapped_key, wrapped_by, erased_at, created_at from tessera_data_keys order by subject`.execute(
    db,
  )
  return rows.map((row) => ({
    subject: row.subject,
    wrappedKey: row.wrapped_key,
    wrappedBy: row.wrapped_by,
    erasedAt: row.erased_at ? new Date(row.erased_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  }))
}

export const readClaims = async (db: Db): Promise<StoredClaim[]> => {
  const { rows } = await sql<StoredClaim>`
    select scope, value, owner from tessera_unique_claims order by scope, value`.execute(db)
  return rows
}

/**
 * Every committed event in the global order, a page at a time. Run it inside one repeatable-read
 * transaction (with the other reads) for a consistent copy: the snapshot hides what commits later.
 */
export async function* readStoredEvents(db: Db, pageSize = 1000): AsyncGenerator<StoredEvent> {
  let after = START
  for (;;) {
    const { rows } = await sql<EventRow>`
      select seq::text as seq, tx_id::text as tx_id, event_id::text as event_id, stream_id,
             stream_version, type, data, metadata, recorded_at
      from tessera_events
      where (tx_id, seq) > (${after.tx.toString()}::xid8, ${after.seq.toString()}::bigint)
      order by tessera_events.tx_id, tessera_events.seq
      limit ${pageSize}`.execute(db)
    for (const row of rows) {
      const event: StoredEvent = {
        id: row.event_id,
        streamId: row.stream_id,
        streamVersion: row.stream_version,
        type: row.type,
        data: row.data,
        metadata: row.metadata,
        recordedAt: new Date(row.recorded_at).toISOString(),
        position: { tx: BigInt(row.tx_id), seq: BigInt(row.seq) },
      }
      after = event.position
      yield event
    }
    if (rows.length < pageSize) return
  }
}

/** Whether the store holds nothing: an import never merges into a live log. */
export const storeIsEmpty = async (db: Db): Promise<boolean> => {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from tessera_events)
        or exists (select 1 from tessera_data_keys)
        or exists (select 1 from tessera_unique_claims) as found`.execute(db)
  return rows[0]?.found === false
}

export const insertDataKey = async (trx: Trx, key: StoredDataKey): Promise<void> => {
  await sql`
    insert into tessera_data_keys (subject, wrapped_key, wrapped_by, erased_at, created_at)
    values (${key.subject}, ${key.wrappedKey}, ${key.wrappedBy}, ${key.erasedAt}::timestamptz,
            ${key.createdAt}::timestamptz)`.execute(trx)
}

export const insertClaim = async (trx: Trx, claim: StoredClaim): Promise<void> => {
  await sql`
    insert into tessera_unique_claims (scope, value, owner)
    values (${claim.scope}, ${claim.value}, ${claim.owner})`.execute(trx)
}

/**
 * Appends events in the order given (which must be the source's global order) under this
 * transaction's id; returns their new positions. Stream versions are kept: they are the streams'
 * own numbering, which the deciders' optimistic concurrency relies on.
 */
export const insertStoredEvents = async (
  trx: Trx,
  events: readonly StoredEvent[],
): Promise<GlobalPosition[]> => {
  if (events.length === 0) return []
  const { rows } = await sql<{ event_id: string; tx_id: string; seq: string }>`
    insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata, recorded_at)
    select event_id, stream_id, stream_version, type, data, metadata, recorded_at
    from jsonb_to_recordset(${JSON.stringify(events.map(toRecord))}::jsonb) as imported(
      ord integer, event_id uuid, stream_id text, stream_version integer, type text, data jsonb,
      metadata jsonb, recorded_at timestamptz)
    order by ord
    returning event_id::text as event_id, tx_id::text as tx_id, seq::text as seq`.execute(trx)
  const positions = new Map(
    rows.map((row) => [row.event_id, { tx: BigInt(row.tx_id), seq: BigInt(row.seq) }]),
  )
  const inOrder = events.map((event) => positions.get(event.id) ?? START)
  // The sequence hands out numbers in the order the rows are inserted; checked, since the whole
  // point of the import is that the order survives.
  for (const [index, position] of inOrder.entries()) {
    const previous = inOrder[index - 1]
    if (position === START || (previous && comparePositions(previous, position) >= 0))
      throw new Error('the imported events did not keep their order')
  }
  return inOrder
}

const toRecord = (event: StoredEvent, ord: number) => ({
  ord,
  event_id: event.id,
  stream_id: event.streamId,
  stream_version: event.streamVersion,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
  recorded_at: event.recordedAt,
})

/** The streams table is the highest version of each stream: derived from the imported events. */
export const rebuildStreamVersions = async (trx: Trx): Promise<void> => {
  await sql`
    insert into tessera_streams (stream_id, version)
    select stream_id, max(stream_version) from tessera_events group by stream_id`.execute(trx)
}
