/// The event store on PostgreSQL or PGlite: the same SQL on both.
///
/// Appends to one stream are serialised by a transaction-scoped advisory lock taken before any
/// write (on PGlite, by its one connection), so inside a stream transaction ids grow with versions. The global order is
/// (transaction id, sequence); `readAll` returns only events of transactions older than every
/// transaction still running, so a reader never passes an event that has yet to commit.
///
/// Appends that are one statement each and are asked while such a statement is on its way go
/// together as one statement, one transaction (group commit, sql-append-gathering.ts); each caller
/// still gets its own result or its own refusal.

import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { CompiledQuery, type Kysely, sql, type Transaction } from 'kysely'
import { stampEventVersion } from '../../domain/events.js'
import {
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type GlobalPosition,
  passingOver,
  type ReadStreamOptions,
  type RecordedEvent,
  START,
  type StreamAppend,
} from './event-store.js'
import { appendParts, claimsOf, refusalOf, refusedAppend } from './sql-append.js'
import { createAppendGathering } from './sql-append-gathering.js'
import { NOTIFY_CHANNEL } from './sql-append-statement.js'
import {
  coalescedStreamReads,
  EVENT_COLUMNS,
  type EventRow,
  type KeyedStreamRead,
  toRecorded,
} from './sql-event-rows.js'

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
  /**
   * Stream reads bring the data-key rows of the people their events are about
   * (`readStreamKeyed`): the database has the personal-data tables (personal-data/schema.ts).
   */
  keysWithStreams?: boolean
}

/** A stream read with the data-key rows its events need, in one statement (sql-event-rows.ts). */
export type KeyedStreamReader = {
  readStreamKeyed(stream: string, options?: ReadStreamOptions): Promise<KeyedStreamRead>
}

// biome-ignore lint/suspicious/noExplicitAny: the store reads and writes its own tables only
type Db = Kysely<any>

/**
 * The log after a position, in the global order, below every transaction still running (a text made
 * once). Its values come through sub-selects so that PostgreSQL keeps one generic plan for it (the
 * global order's index) instead of planning it on every read: sql-event-rows.ts says why.
 */
const READ_ALL = `
      select ${EVENT_COLUMNS} from tessera_events
      where (tx_id, seq) > ((select $1::xid8), (select $2::bigint))
        and tx_id < pg_snapshot_xmin(pg_current_snapshot())
      order by tessera_events.tx_id, tessera_events.seq
      limit (select $3::bigint)`

export const createSqlEventStore = (
  db: Db,
  options: SqlEventStoreOptions = {},
): EventStore & KeyedStreamReader => {
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
  const streamReads = coalescedStreamReads(db, options.keysWithStreams === true)
  // The first statement locks every stream of the transaction, in one order whoever appends, so
  // two transactions appending to the same streams never wait on each other crosswise.
  const locksOf = (parts: readonly StreamAppend[]) => (singleBackend ? [] : parts.map((part) => part.stream))
  // Appends that are one statement each, asked while one is on its way, go as one (group commit).
  const gathering = createAppendGathering((parts) =>
    appendParts(db, parts, { locks: locksOf(parts), storeId }),
  )

  const appendAll = async (unstamped: readonly StreamAppend[]): Promise<AppendResult[]> => {
    if (unstamped.length === 0 || unstamped.some(({ events }) => events.length === 0))
      throw new Error('an append needs at least one event')
    // Each event says which version of its type's shape it is written in.
    const appends = unstamped.map((part) => ({ ...part, events: part.events.map(stampEventVersion) }))
    const events = appends.flatMap((part) => part.events)
    // One statement is a transaction of its own; the inline hook and claims that must go one by
    // one after it need a transaction around it.
    const oneStatement =
      claimsOf(appends).inStatement && (inline === undefined || inline.affects?.(events) === false)
    let results: AppendResult[]
    try {
      results = oneStatement
        ? await gathering.append(appends)
        : await db.transaction().execute(async (trx) => {
            const appended = await appendParts(trx, appends, { locks: locksOf(appends), storeId })
            await inline?.(trx, events)
            return appended
          })
    } catch (error) {
      const refusal = refusalOf(error)
      throw refusal ? await refusedAppend(db, appends, refusal) : error
    }
    notify()
    return results
  }

  const readAll = async (after: GlobalPosition, limit: number): Promise<RecordedEvent[]> => {
    const values = [after.tx.toString(), after.seq.toString(), limit]
    const { rows } = await db.executeQuery(CompiledQuery.raw(READ_ALL, values) as CompiledQuery<EventRow>)
    return rows.map(toRecorded)
  }

  return {
    async appendToStream(stream, events, appendOptions): Promise<AppendResult> {
      const [result] = await appendAll([{ stream, events, options: appendOptions }])
      return result as AppendResult
    },

    appendToStreams: (appends) => appendAll(appends),

    readStream: (stream, { afterVersion = 0 } = {}) => streamReads.read(stream, afterVersion),

    readStreamKeyed: (stream, { afterVersion = 0 } = {}) => streamReads.readKeyed(stream, afterVersion),

    readAll,

    readAllOpening: async (after, limit, open) => passingOver(await readAll(after, limit), open),

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

export const POSTGRES_NOTIFY_CHANNEL = NOTIFY_CHANNEL
