/// One batch of the log applied to a group's read models: in one transaction with the group's
/// checkpoint, under the group's advisory lock, and only if the checkpoint is still where this
/// projector last saw it (another instance may have moved it). And how long to wait after a failure.

import { CompiledQuery, sql, type Transaction } from 'kysely'
import {
  comparePositions,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'
import { readCheckpoint } from './checkpoint-store.js'
import { projectionsFor } from './projections-for.js'
import type { ProjectorOptions } from './projector-types.js'
import { type TableFacts, tableFactsOf, type WriteBehind, writeBehind } from './write-behind.js'

/** Each database's unique keys and column types, read by its first batch (write-behind.ts). */
const factsByDatabase = new WeakMap<object, Promise<TableFacts>>()
/** The same once read: a detached batch (detached-batch.ts) has no transaction to read them in. */
const knownFacts = new WeakMap<object, TableFacts>()

const tableFactsFor = (db: ProjectorOptions['db'], trx: Transaction<Database>): Promise<TableFacts> => {
  let facts = factsByDatabase.get(db)
  if (!facts) {
    facts = tableFactsOf(trx)
    // A failed read (its transaction rolled back) is read again by the next batch.
    facts.then(
      (read) => knownFacts.set(db, read),
      () => factsByDatabase.delete(db),
    )
    factsByDatabase.set(db, facts)
  }
  return facts
}

/** The database's table facts when a batch has read them already, otherwise null. */
export const knownTableFacts = (db: ProjectorOptions['db']): TableFacts | null => knownFacts.get(db) ?? null

/** A projection threw on an event: the event, not the database, is the suspect. */
export class ProjectionError extends Error {
  override readonly name = 'ProjectionError'
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    override readonly cause: unknown,
  ) {
    super(`${projection} failed on ${event.type}: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

/** Serialises every writer of one group's read models and checkpoint until the transaction ends. */
export const lockGroup = async (trx: Transaction<Database>, group: string): Promise<void> => {
  await sql`select pg_advisory_xact_lock(${groupLockKey(group)})`.execute(trx)
}

const groupLockKey = (group: string) => sql`hashtextextended(${`tessera-projector:${group}`}, 0)`

export type Batch = {
  group: string
  projections: readonly Projection[]
  /** Events in the log's order; the checkpoint moves to the last one. */
  events: readonly RecordedEvent[]
  /** Where the stored checkpoint must still be. */
  expected: GlobalPosition
  /** Events an operator skipped: the checkpoint passes them untouched. */
  skip: ReadonlySet<string>
  /** The database is one backend (PGlite): no other writer to lock out (ProjectorOptions). */
  singleBackend: boolean
}

/**
 * Batches of at least this many events take the batched path; a lone event goes event by event.
 * The live path's batches at c16 hold a few events (a token refresh's, a sign-up's), whose writes
 * of one shape then travel as one statement: issue 35 counted 4.4 statements per code exchange and
 * 3.4 per refresh with 16 here, 3.8 and 2.9 with 2, and less of the database's CPU per answer.
 */
export const WRITE_BEHIND_FROM = 2

/**
 * Applies the batch and moves the checkpoint past it; returns null, or the stored checkpoint when
 * another projector moved it first (nothing is applied then). A projection's failure is thrown as
 * a ProjectionError, and the whole batch rolls back.
 *
 * A long batch first goes the batched path (write-behind.ts): its writes held back and sent in a
 * few statements. Should anything fail there, the batch is rolled back and applied again event by
 * event, so a failure is reported, and the group halted, at the very event and projection that
 * fails, exactly as on the live path.
 */
export const applyBatchInTransaction = async (
  db: ProjectorOptions['db'],
  batch: Batch,
): Promise<GlobalPosition | null> => {
  if (batch.events.length >= WRITE_BEHIND_FROM) {
    try {
      return await applyInTransaction(db, batch, true)
    } catch {
      // Rolled back; the event-by-event path below finds what failed, or succeeds.
    }
  }
  return applyInTransaction(db, batch, false)
}

const applyInTransaction = (
  db: ProjectorOptions['db'],
  { group, projections, events, expected, skip, singleBackend }: Batch,
  batched: boolean,
): Promise<GlobalPosition | null> => {
  const last = events.at(-1)
  if (!last) throw new Error('an empty batch')
  return transactionOf(db, singleBackend, async (trx) => {
    if (!(await moveCheckpoint(trx, group, expected, last.position, singleBackend)))
      // Another projector process got here first: take its checkpoint and read again.
      return { value: await readCheckpoint(trx, group), committed: false }
    const behind = batched ? writeBehind(trx, !singleBackend, await tableFactsFor(db, trx)) : null
    await projectEvents(behind?.trx ?? trx, behind, { projections, events, skip })
    return { value: null, committed: (await behind?.flushAndCommit()) ?? false }
  })
}

/**
 * Runs the projections over the batch's events through `target`, telling `behind` (when the writes
 * are held back) which event each write comes from. `pause` is awaited before each event.
 */
export const projectEvents = async (
  target: Transaction<Database>,
  behind: WriteBehind | null,
  { projections, events, skip }: Pick<Batch, 'projections' | 'events' | 'skip'>,
  pause?: (index: number) => Promise<void> | undefined,
): Promise<void> => {
  for (const [index, event] of events.entries()) {
    // An operator skipped it (`tessera projections skip`): the checkpoint passes it untouched.
    if (skip.has(event.id)) continue
    await pause?.(index)
    behind?.startEvent(index)
    for (const projection of projectionsFor(projections, event.type)) {
      try {
        await projection.apply(target, event)
      } catch (error) {
        throw new ProjectionError(projection.name, event, error)
      }
    }
  }
}

/** A batch whose writes were projected and planned ahead, with no transaction (detached-batch.ts). */
export type PreparedBatch = {
  batch: Batch
  /** The texts that apply its writes, the last ending with a commit; none when it writes nothing. */
  texts: readonly string[]
}

/**
 * Applies a prepared batch as applyBatchInTransaction applies one, with the same guarantees: in one
 * transaction that first moves the checkpoint from `expected` (nothing is sent when another
 * projector moved it), and, should its texts fail, rolled back and applied again event by event.
 */
export const applyPreparedInTransaction = async (
  db: ProjectorOptions['db'],
  prepared: PreparedBatch,
): Promise<GlobalPosition | null> => {
  try {
    return await applyTexts(db, prepared)
  } catch {
    // Rolled back; the event-by-event path below finds what failed, or succeeds.
  }
  return applyInTransaction(db, prepared.batch, false)
}

const applyTexts = (db: ProjectorOptions['db'], { batch, texts }: PreparedBatch) => {
  const { group, events, expected } = batch
  const last = events.at(-1)
  if (!last) throw new Error('an empty batch')
  return transactionOf(db, false, async (trx) => {
    if (!(await moveCheckpoint(trx, group, expected, last.position, false)))
      return { value: await readCheckpoint(trx, group), committed: false }
    for (const text of texts) await trx.executeQuery(CompiledQuery.raw(text))
    return { value: null, committed: texts.length > 0 }
  })
}

/** What a transaction's work gives back, and whether it committed the transaction itself. */
type Outcome<T> = { value: T; committed: boolean }

/**
 * A transaction whose work may commit it itself, as the batched path's last text does on
 * PostgreSQL (write-behind.ts). PGlite's driver keeps track of its transaction (pglite-dialect.ts),
 * so there Kysely's own transaction runs the work, which never commits it.
 */
const transactionOf = <T>(
  db: ProjectorOptions['db'],
  singleBackend: boolean,
  work: (trx: Transaction<Database>) => Promise<Outcome<T>>,
): Promise<T> => {
  if (singleBackend) return db.transaction().execute(async (trx) => (await work(trx)).value)
  return db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection)
    try {
      // Only a transaction's own statements go through it, as through Kysely's Transaction.
      const { value, committed } = await work(connection as Transaction<Database>)
      if (!committed) await sql`commit`.execute(connection)
      return value
    } catch (error) {
      // A commit that failed in the text has already ended the transaction: the rollback only warns.
      await sql`rollback`.execute(connection).catch(() => {})
      throw error
    }
  })
}

/**
 * Takes the group's lock and moves its checkpoint from `expected` to `to`, in one statement (one
 * round trip where lock, read and write were three): true when it moved.
 * - The lock comes first: both writes take their rows from `locked`, so neither touches the
 *   checkpoint's row before the lock is held (taking them in the other order could deadlock with a
 *   projector that holds the lock and waits for the row).
 * - The statement's snapshot may predate the commit of whoever held the lock before; an UPDATE
 *   still checks its condition against the latest committed row, and later statements of the
 *   transaction see everything that projector committed.
 * - A missing row is the start of the log: inserted only when that is what was expected (after a
 *   replay emptied the table, a projector further on must not write its old place back).
 */
const moveCheckpoint = async (
  trx: Transaction<Database>,
  group: string,
  expected: GlobalPosition,
  to: GlobalPosition,
  singleBackend: boolean,
): Promise<boolean> => {
  const locked = singleBackend ? sql`select 1` : sql`select pg_advisory_xact_lock(${groupLockKey(group)})`
  const [toTx, toSeq] = [to.tx.toString(), to.seq.toString()]
  const { rows } = await sql<{ name: string }>`
    with locked as (${locked}),
    moved as (
      update tessera_checkpoints set tx = ${toTx}::bigint, seq = ${toSeq}::bigint
      from locked
      where name = ${group}
        and tx = ${expected.tx.toString()}::bigint and seq = ${expected.seq.toString()}::bigint
      returning name),
    started as (
      insert into tessera_checkpoints (name, tx, seq)
      select ${group}, ${toTx}::bigint, ${toSeq}::bigint from locked
      where ${comparePositions(expected, START) === 0}
      on conflict (name) do nothing
      returning name)
    select name from moved union all select name from started`.execute(trx)
  return rows.length > 0
}

/**
 * The backoff before the next try: a projection's failure backs off far (it will likely fail
 * again); a database that is away is asked again every 2 s at most, so the read models move within
 * seconds of its return.
 */
export const retryDelayMs = (error: unknown, failures: number, retryBaseMs: number): number => {
  const ceiling = error instanceof ProjectionError ? 30_000 : 2_000
  return Math.min(ceiling, retryBaseMs * 2 ** (failures - 1))
}
