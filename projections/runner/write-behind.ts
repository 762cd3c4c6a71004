/// The projector's batched path (apply-batch.ts): a batch's events applied through a transaction
/// that holds back every INSERT, UPDATE and DELETE the projections send and answers them at once,
/// then sends them planned (statement-plan.ts) when something must be read, and at the end of the
/// batch. On PostgreSQL those statements travel as one text (one round trip, infra/db/sql-literals.ts).
///
/// A held-back write answers with no rows and no count: a projection must not branch on what its
/// write changed (read first instead). A failure surfaces at a flush, where the event that caused
/// it is not known: the caller rolls the batch back and applies it again one event at a time.

import {
  type Compilable,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
  type Transaction,
} from 'kysely'
import type { Database } from '../database.js'
import { classify, type Deferred, planInlined, planStatements, type UniqueKeys } from './statement-plan.js'

export type WriteBehind = {
  /** What the projections are given: a transaction in all they can tell. */
  readonly trx: Transaction<Database>
  /** The event whose writes come next (its index in the batch). */
  startEvent(index: number): void
  /** Sends every held-back write. */
  flush(): Promise<void>
  /**
   * Sends every held-back write, ending the transaction with a commit in the same text where the
   * writes travel as one (PostgreSQL): one round trip and one statement fewer per batch. True when
   * it committed; otherwise the caller commits.
   */
  flushAndCommit(): Promise<boolean>
  /**
   * Detached (no transaction behind it): the texts that send every held-back write and commit,
   * planned now, to be sent later (detached-batch.ts); none when nothing is held back. Throws
   * DetachedRead when a projection tried to read.
   */
  plannedTexts(): string[]
}

/** A detached write-behind was asked to read: its batch needs the database after all. */
export class DetachedRead extends Error {
  override readonly name = 'DetachedRead'
}

/** Bytes of SQL text per round trip at most when statements are sent as one text. */
const MAX_TEXT = 4_000_000

// Starts with a comment, so that it is never sent as a named prepared statement (infra/db/pg-prepared.ts),
// which can hold only one statement.
const BATCH_MARK = '/* tessera projector batch */\n'

/** What the plan knows of the read models' schema (statement-plan.ts). */
export type TableFacts = { uniqueKeys: UniqueKeys }

/**
 * Each table's unique keys, from its unique indexes (whole-column, not partial, checked at once):
 * what lets the plan tell an UPDATE of one row. Read once per database, since the read models'
 * schema only changes by migrations, which run before any projector.
 */
export const tableFactsOf = async (trx: Transaction<Database>): Promise<TableFacts> => {
  const { rows } = await sql<{ table: string; columns: string[] }>`
    select c.relname as table,
           array(select a.attname::text from unnest(i.indkey) with ordinality as k(attnum, n)
                 join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.n) as columns
    from pg_index i
    join pg_class c on c.oid = i.indrelid
    join pg_namespace s on s.oid = c.relnamespace
    where i.indisunique and i.indimmediate and i.indpred is null and i.indexprs is null
      and s.nspname = current_schema()`.execute(trx)
  const uniqueKeys = new Map<string, string[][]>()
  for (const { table, columns } of rows) uniqueKeys.set(table, [...(uniqueKeys.get(table) ?? []), columns])
  return { uniqueKeys }
}

/**
 * The writes planned as texts of at most MAX_TEXT bytes each (PostgreSQL), the last one ending with
 * a commit when asked. A statement that fails skips the rest of its text, the commit with it: the
 * caller rolls back.
 */
const inlinedTexts = (writes: readonly Deferred[], commit: boolean, facts?: TableFacts): string[] => {
  const texts: string[] = []
  let text = ''
  for (const statement of planInlined(writes, facts?.uniqueKeys)) {
    const inlined = `${statement};\n`
    if (text.length > 0 && text.length + inlined.length > MAX_TEXT) {
      texts.push(BATCH_MARK + text)
      text = ''
    }
    text += inlined
  }
  if (commit) text += 'commit;\n'
  if (text.length > 0) texts.push(BATCH_MARK + text)
  return texts
}

/**
 * `oneText`: the database takes several statements in one simple-protocol query (PostgreSQL); on
 * PGlite, which has no round trip to save, the planned statements run one by one. With no `trx`
 * the write-behind is detached: it only holds writes, and a read throws DetachedRead.
 */
export const writeBehind = (
  trx: Transaction<Database> | null,
  oneText: boolean,
  facts?: TableFacts,
): WriteBehind => {
  let pending: Deferred[] = []
  let event = 0
  // Set once a read was refused, should a projection have caught the error and gone on.
  let refused = false
  const attached = (): Transaction<Database> => {
    if (trx) return trx
    refused = true
    throw new DetachedRead('a detached batch cannot read')
  }

  const send = async (writes: readonly Deferred[], commit: boolean) => {
    if (!oneText) {
      for (const { sql, parameters } of planStatements(writes, facts?.uniqueKeys))
        await attached().executeQuery(CompiledQuery.raw(sql, [...parameters]))
      return
    }
    for (const text of inlinedTexts(writes, commit, facts))
      await attached().executeQuery(CompiledQuery.raw(text))
  }

  const flush = async () => {
    if (pending.length === 0) return
    const writes = pending
    pending = []
    await send(writes, false)
  }

  const flushAndCommit = async () => {
    // Nothing held back: no text to carry the commit.
    if (pending.length === 0 || !oneText) {
      await flush()
      return false
    }
    const writes = pending
    pending = []
    await send(writes, true)
    return true
  }

  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const write = classify(query.sql, query.parameters, event)
      if (write) {
        pending.push(write)
        return { rows: [] }
      }
      const target = attached()
      await flush()
      return target.executeQuery<R>(query)
    },
    // biome-ignore lint/correctness/useYield: the projector never streams
    async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
      throw new Error('a projection cannot stream inside a batch')
    },
  }
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {
      throw new Error('a projection cannot open a transaction: it runs inside the batch’s own')
    },
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  }
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (inner) => new PostgresIntrospector(inner),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  })
  // A statement a projection made itself (bound-statements.ts) goes straight to the connection
  // above: Kysely's executor would wrap it in a connection's acquire and release and a result's
  // transform (it has no plugins), some awaits per write that change nothing here.
  Object.defineProperty(db, 'executeQuery', {
    value: (query: CompiledQuery | Compilable) =>
      connection.executeQuery('compile' in query ? query.compile() : query),
  })
  return {
    trx: db as unknown as Transaction<Database>,
    startEvent(index) {
      event = index
    },
    flush,
    flushAndCommit,
    plannedTexts() {
      if (refused) throw new DetachedRead('a detached batch tried to read')
      const writes = pending
      pending = []
      return writes.length === 0 ? [] : inlinedTexts(writes, true, facts)
    },
  }
}
