/// One batch of the log applied to a group's read models: in one transaction with the group's
/// checkpoint, under the group's advisory lock, and only if the checkpoint is still where this
/// projector last saw it (another instance may have moved it). And how long to wait after a failure.

import { CompiledQuery, sql, type Transaction } from 'kysely'
import { inlineParameters } from '../../infra/db/sql-literals.js'
import {
  comparePositions,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'
import { readCheckpoint } from './checkpoint-store.js'
import type { ProjectorOptions } from './projector-types.js'
import { type TableFacts, tableFactsOf, type WriteBehind, writeBehind } from './write-behind.js'

/** Each database's unique keys and column types, read by its first batch (write-behind.ts). */
const factsByDatabase = new WeakMap<object, Promise<TableFacts>>()

const tableFactsFor = (db: ProjectorOptions['db']): Promise<TableFacts> => {
  let facts = factsByDatabase.get(db)
  if (!facts) {
    facts = tableFactsOf(db)
    // A failed read is read again by the next batch.
    facts.catch(() => factsByDatabase.delete(db))
    factsByDatabase.set(db, facts)
  }
  return facts
}

/**
 * Whether each database takes several statements in one text (PostgreSQL's simple protocol), asked
 * once, outside any transaction. PGlite prepares every text, which holds one statement; and it is
 * not always opened as `singleBackend` (`tessera replay` does not say).
 */
const severalByDatabase = new WeakMap<object, Promise<boolean>>()

const takesSeveralStatements = (db: ProjectorOptions['db']): Promise<boolean> => {
  let several = severalByDatabase.get(db)
  if (!several) {
    // A text that starts with a comment is never named (infra/db/pg-prepared.ts): one statement each.
    several = db.executeQuery(CompiledQuery.raw('/* several statements? */ select 1;\nselect 1')).then(
      () => true,
      () => false,
    )
    severalByDatabase.set(db, several)
  }
  return several
}

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

const applyInTransaction = async (
  db: ProjectorOptions['db'],
  batch: Batch,
  batched: boolean,
): Promise<GlobalPosition | null> => {
  const last = batch.events.at(-1)
  if (!last) throw new Error('an empty batch')
  const move = checkpointMove(db, batch, last.position)
  // Read before the transaction: on PGlite it holds the one connection.
  const facts = batched ? await tableFactsFor(db) : null
  const oneText = await takesSeveralStatements(db)
  try {
    await (oneText ? inFewRoundTrips : inKyselyTransaction)(db, move, batch, facts)
    return null
  } catch (error) {
    if (!notWhereExpected(error)) throw error
    // Another projector process got here first (nothing applied): take its checkpoint, read again.
    return readCheckpoint(db, batch.group)
  }
}

/** The events through the projections; on the batched path, `behind` holds their writes back. */
const applyEvents = async (
  target: Transaction<Database>,
  { projections, events, skip }: Batch,
  behind: WriteBehind | null,
): Promise<void> => {
  for (const [index, event] of events.entries()) {
    // An operator skipped it (`tessera projections skip`): the checkpoint passes it untouched.
    if (skip.has(event.id)) continue
    behind?.startEvent(index)
    for (const projection of projections) {
      try {
        await projection.apply(target, event)
      } catch (error) {
        throw new ProjectionError(projection.name, event, error)
      }
    }
  }
}

/** PGlite has no round trip to save: Kysely's own transaction, the move its first statement. */
const inKyselyTransaction = (
  db: ProjectorOptions['db'],
  move: CompiledQuery,
  batch: Batch,
  facts: TableFacts | null,
) =>
  db.transaction().execute(async (trx) => {
    await trx.executeQuery(move)
    const behind = facts ? writeBehind(trx, false, facts) : null
    await applyEvents(behind?.trx ?? trx, batch, behind)
    await behind?.flush()
  })

/**
 * On PostgreSQL the batched path sends the checkpoint's move with its writes, as one
 * simple-protocol text that PostgreSQL runs as one transaction: one round trip and no `begin` or
 * `commit` when no projection reads in between (write-behind.ts). A lone event's path sends `begin`
 * with the move. A statement that fails in a text leaves the rest of it unrun (`commit` included)
 * and its transaction aborted until the rollback below.
 */
const inFewRoundTrips = (
  db: ProjectorOptions['db'],
  move: CompiledQuery,
  batch: Batch,
  facts: TableFacts | null,
) =>
  db.connection().execute(async (connection) => {
    const trx = connection as unknown as Transaction<Database>
    const opening = inlineParameters(move.sql, move.parameters)
    try {
      if (facts) {
        const behind = writeBehind(trx, true, facts, opening)
        await applyEvents(behind.trx, batch, behind)
        await behind.commit()
      } else {
        await trx.executeQuery(CompiledQuery.raw(`begin;\n${opening}`))
        await applyEvents(trx, batch, null)
        await trx.executeQuery(CompiledQuery.raw('commit'))
      }
    } catch (error) {
      // Outside a transaction (a text that was one, or nothing sent yet) it only warns.
      await trx.executeQuery(CompiledQuery.raw('rollback'))
      throw error
    }
  })

/** In the message of the error the move raises when the checkpoint is not where it was expected. */
const NOT_WHERE_EXPECTED = 'tessera: another projector moved the checkpoint'

const notWhereExpected = (error: unknown): boolean =>
  error instanceof Error && error.message.includes(NOT_WHERE_EXPECTED)

/**
 * Takes the group's lock and moves its checkpoint from `expected` to `to`, in one statement (one
 * round trip where lock, read and write were three), which fails, and so fails its transaction,
 * when the checkpoint was not there: the batch's writes can then never commit, even when they
 * travel before its answer is read.
 * - The lock comes first: both writes take their rows from `locked`, so neither touches the
 *   checkpoint's row before the lock is held (taking them in the other order could deadlock with a
 *   projector that holds the lock and waits for the row).
 * - The statement's snapshot may predate the commit of whoever held the lock before; an UPDATE
 *   still checks its condition against the latest committed row, and later statements of the
 *   transaction see everything that projector committed.
 * - A missing row is the start of the log: inserted only when that is what was expected (after a
 *   replay emptied the table, a projector further on must not write its old place back).
 * - The failure is a cast of a text that holds the count of rows moved: a value known only once
 *   the statement runs, so that PostgreSQL cannot fold it (and fail) while planning.
 */
const checkpointMove = (
  db: ProjectorOptions['db'],
  { group, expected, singleBackend }: Batch,
  to: GlobalPosition,
): CompiledQuery => {
  const locked = singleBackend ? sql`select 1` : sql`select pg_advisory_xact_lock(${groupLockKey(group)})`
  const [toTx, toSeq] = [to.tx.toString(), to.seq.toString()]
  return sql`
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
    select case when count(*) > 0 then 1
                else (${`${NOT_WHERE_EXPECTED}: `}::text || count(*))::integer end as moved
    from (select name from moved union all select name from started) m`.compile(db)
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
