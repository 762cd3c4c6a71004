/// The event store on PostgreSQL or PGlite: the same SQL on both.
///
/// Appends to one stream are serialised by a transaction-scoped advisory lock taken before any
/// write (on PGlite, by its one connection), so inside a stream transaction ids grow with versions. The global order is
/// (transaction id, sequence); `readAll` returns only events of transactions older than every
/// transaction still running, so a reader never passes an event that has yet to commit.

import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import {
  type AppendOptions,
  type AppendResult,
  ConcurrencyError,
  type EventStore,
  type EventToAppend,
  type GlobalPosition,
  type RecordedEvent,
  START,
  type StreamAppend,
  type UniqueClaim,
  UniqueClaimConflictError,
} from './event-store.js'

const NOTIFY_CHANNEL = 'tessera_events'

type EventRow = {
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

const toRecorded = (row: EventRow): RecordedEvent => ({
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
const EVENT_COLUMNS = sql.raw(
  'seq::text as seq, tx_id::text as tx_id, event_id::text as event_id, stream_id, stream_version, type, data, metadata, recorded_at',
)

/**
 * An inline projection: runs inside the append's own transaction, after the events are inserted, so
 * what it writes commits (or rolls back) with them. For the few tables that must never trail the
 * log (what authenticates); everything else is projected asynchronously.
 */
export type InlineProjection = ((
  trx: Transaction<unknown>,
  events: readonly EventToAppend[],
) => Promise<void>) & {
  /**
   * Whether these events give the hook anything to write. An append that claims nothing and that
   * the hook leaves alone is one statement, its own transaction: one round trip, not three.
   * Without it, every append runs in a transaction with the hook.
   */
  affects?: (events: readonly EventToAppend[]) => boolean
}

export type SqlEventStoreOptions = {
  /**
   * Subscribes to the commit notifications of every store on the database (PostgreSQL LISTEN),
   * with each one's payload: the committing store's id. Absent for PGlite.
   */
  listenForCommits?: (onCommit: (payload: string) => void) => Promise<() => Promise<void>>
  inline?: InlineProjection
  /**
   * The database is one backend that lends its one connection to one transaction at a time
   * (PGlite): appends never overlap, and the stream lock, which a backend never waits on itself,
   * is skipped.
   */
  singleBackend?: boolean
}

// biome-ignore lint/suspicious/noExplicitAny: the store reads and writes its own tables only
type Db = Kysely<any>

export const createSqlEventStore = (db: Db, options: SqlEventStoreOptions = {}): EventStore => {
  const commits = new EventEmitter()
  commits.setMaxListeners(0)
  const notify = () => commits.emit('commit')
  // Each commit names the store that made it. This store tells its own listeners as its
  // transaction ends, so hearing its own notification again would only wake them a second time
  // (for the projector, one more read of the log and of its checkpoint per append).
  const storeId = randomUUID()
  const stopListening = options.listenForCommits?.((payload) => {
    if (payload !== storeId) notify()
  })
  const singleBackend = options.singleBackend === true
  const { inline } = options

  const appendAll = async (appends: readonly StreamAppend[]): Promise<AppendResult[]> => {
    if (appends.length === 0 || appends.some(({ events }) => events.length === 0))
      throw new Error('an append needs at least one event')
    const events = appends.flatMap((part) => part.events)
    // The first statement locks every stream of the transaction, in one order whoever appends, so
    // two transactions appending to the same streams never wait on each other crosswise.
    const locks = singleBackend ? [] : appends.map((part) => part.stream)
    const appendPart = (q: Db, part: StreamAppend, index: number) =>
      append(q, part, { locks: index === 0 ? locks : [], storeId })
    const alone =
      appends.length === 1 &&
      (appends[0]?.options.uniqueClaims ?? []).length === 0 &&
      (inline === undefined || inline.affects?.(events) === false)
    const results = alone
      ? [await appendPart(db, appends[0] as StreamAppend, 0)]
      : await db.transaction().execute(async (trx) => {
          const appended: AppendResult[] = []
          for (const [index, part] of appends.entries()) appended.push(await appendPart(trx, part, index))
          await inline?.(trx, events)
          return appended
        })
    notify()
    return results
  }

  return {
    async appendToStream(stream, events, appendOptions): Promise<AppendResult> {
      const [result] = await appendAll([{ stream, events, options: appendOptions }])
      return result as AppendResult
    },

    appendToStreams: (appends) => appendAll(appends),

    async readStream(stream) {
      const { rows } = await sql<EventRow>`
        select ${EVENT_COLUMNS} from tessera_events
        where stream_id = ${stream} order by stream_version`.execute(db)
      return rows.map(toRecorded)
    },

    async readAll(after: GlobalPosition, limit: number) {
      const { rows } = await sql<EventRow>`
        select ${EVENT_COLUMNS} from tessera_events
        where (tx_id, seq) > (${after.tx.toString()}::xid8, ${after.seq.toString()}::bigint)
          and tx_id < pg_snapshot_xmin(pg_current_snapshot())
        order by tessera_events.tx_id, tessera_events.seq
        limit ${limit}`.execute(db)
      return rows.map(toRecorded)
    },

    async head(after, countLimit) {
      // The count stops at the limit; the last event is found apart, through the global order's index.
      const { rows } = await sql<{ behind: string; held: string; age: number | null }>`
        select count(*)::text as behind,
               count(*) filter (where e.tx_id >= pg_snapshot_xmin(pg_current_snapshot()))::text as held,
               extract(epoch from now() - min(e.recorded_at))::float8 as age
        from (select tx_id, recorded_at from tessera_events
              where (tx_id, seq) > (${after.tx.toString()}::xid8, ${after.seq.toString()}::bigint)
              order by tx_id, seq limit ${countLimit}) e`.execute(db)
      const last = await sql<{ tx_id: string; seq: string }>`
        select tx_id::text as tx_id, seq::text as seq from tessera_events
        order by tessera_events.tx_id desc, tessera_events.seq desc limit 1`.execute(db)
      const row = rows[0]
      const end = last.rows[0]
      return {
        position: end ? { tx: BigInt(end.tx_id), seq: BigInt(end.seq) } : START,
        eventsAfter: Number(row?.behind ?? 0),
        oldestAfterSeconds: Math.max(0, row?.age ?? 0),
        heldBack: Number(row?.held ?? 0),
      }
    },

    async claimOwner(scope, value) {
      const { rows } = await sql<{ owner: string }>`
        select owner from tessera_unique_claims where scope = ${scope} and value = ${value}`.execute(db)
      return rows[0]?.owner ?? null
    },

    subscribe(listener) {
      commits.on('commit', listener)
      return () => commits.off('commit', listener)
    },

    async close() {
      commits.removeAllListeners()
      await (await stopListening)?.()
    },
  }
}

/**
 * Appends in one statement (one round trip, however many events), in `q`'s transaction or, outside
 * one, as a transaction of its own; then applies the claims. A version that is not the expected
 * one writes nothing and throws (the caller's transaction, if any, rolls back the rest).
 */
const append = async (
  q: Db,
  { stream, events, options: { expectedVersion, uniqueClaims = [] } }: StreamAppend,
  { locks, storeId }: { locks: readonly string[]; storeId: string },
): Promise<AppendResult> => {
  // The statement's steps, each taking its rows from the one before:
  // - the streams' advisory locks (`locks`: the transaction's first statement takes them all, in
  //   the order of their hashes), before any write: the transaction gets its id at its first write,
  //   so under the lock transaction ids grow with the stream's versions (PGlite, one backend that
  //   lends its one connection to one transaction at a time, needs no lock);
  // - the stream's version moved by the number of events, if it is the expected one. The
  //   statement's snapshot may predate the commit of the append that held the lock before; INSERT
  //   ... ON CONFLICT and UPDATE still judge the latest committed row. The notification, naming
  //   this store, is sent at commit to the listeners of other processes;
  // - the events, numbered from that version, in their order.
  const locked =
    locks.length === 0
      ? sql`select 1`
      : locks.length === 1
        ? sql`select pg_advisory_xact_lock(hashtextextended(${locks[0]}, 0))`
        : sql`select count(pg_advisory_xact_lock(h)) from (
                select hashtextextended(s, 0) as h from unnest(${[...locks]}::text[]) s order by h) ordered`
  const n = events.length
  const notified = sql`pg_notify(${NOTIFY_CHANNEL}, ${storeId})::text as notified`
  const moved =
    expectedVersion === 'any'
      ? sql`insert into tessera_streams (stream_id, version) select ${stream}, ${n} from locked
            on conflict (stream_id) do update set version = tessera_streams.version + ${n}
            returning version, ${notified}`
      : expectedVersion === 'no_stream'
        ? // A stream exists only with events, so its row is there once it has any.
          sql`insert into tessera_streams (stream_id, version) select ${stream}, ${n} from locked
            on conflict (stream_id) do nothing
            returning version, ${notified}`
        : sql`update tessera_streams set version = version + ${n} from locked
            where stream_id = ${stream} and version = ${expectedVersion}
            returning version, ${notified}`
  const appended = JSON.stringify(
    events.map((event) => ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata })),
  )
  const { rows } = await sql<{ version: number; seq: string; tx_id: string }>`
    with locked as (${locked}),
    moved as (${moved}),
    inserted as (
      insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
      select (e.event->>'id')::uuid, ${stream}, moved.version - ${n} + e.n::integer,
             e.event->>'type', e.event->'data', e.event->'metadata'
      from moved, jsonb_array_elements(${appended}::jsonb) with ordinality as e(event, n)
      order by e.n
      returning seq, tx_id)
    select moved.version, last.seq::text as seq, last.tx_id::text as tx_id
    from moved cross join lateral (
      select seq, tx_id from inserted order by seq desc limit 1) last`.execute(q)
  const row = rows[0]
  if (row === undefined) throw await concurrencyError(q, stream, expectedVersion)

  for (const claim of uniqueClaims) await applyClaim(q, claim)

  return { nextVersion: row.version, position: { tx: BigInt(row.tx_id), seq: BigInt(row.seq) } }
}

/** The stream was not at the expected version: says where it is (for the message only). */
const concurrencyError = async (
  q: Db,
  stream: string,
  expectedVersion: AppendOptions['expectedVersion'],
): Promise<ConcurrencyError> => {
  const { rows } = await sql<{ version: number }>`
    select version from tessera_streams where stream_id = ${stream}`.execute(q)
  return new ConcurrencyError(stream, expectedVersion, rows[0]?.version ?? 'no_stream')
}

const applyClaim = async (trx: Db, claim: UniqueClaim): Promise<void> => {
  if (claim.op === 'release') {
    await sql`
      delete from tessera_unique_claims
      where scope = ${claim.scope} and value = ${claim.value} and owner = ${claim.owner}`.execute(trx)
    return
  }
  // A concurrent claim of the same value waits here for the first to commit, then sees it.
  const { rows } = await sql<{ owner: string }>`
    insert into tessera_unique_claims (scope, value, owner) values (${claim.scope}, ${claim.value}, ${claim.owner})
    on conflict (scope, value) do update set owner = excluded.owner
      where tessera_unique_claims.owner = excluded.owner
    returning owner`.execute(trx)
  if (rows.length === 0) throw new UniqueClaimConflictError(claim.scope, claim.value)
}

export const POSTGRES_NOTIFY_CHANNEL = NOTIFY_CHANNEL
