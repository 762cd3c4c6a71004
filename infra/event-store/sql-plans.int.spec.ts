import { sql } from 'kysely'
import { describe, expect, test } from 'vitest'
import { freshPostgres } from '../../tests/support/databases.js'
import { openDatabase } from '../db/database.js'
import { anEvent } from './event-store.contract-support.js'
import { coalescedStreamReads } from './sql-event-rows.js'
import { createSqlEventStore } from './sql-event-store.js'

type Db = Awaited<ReturnType<typeof openDatabase>>['db']

/** How the connection's prepared statement whose text has `fragment` was planned. */
const plansOf = async (db: Db, fragment: string) =>
  (
    await sql<{ generic_plans: string; custom_plans: string }>`
      select generic_plans::text, custom_plans::text from pg_prepared_statements
      where statement like ${`%${fragment}%`}`.execute(db)
  ).rows

/** The generic plan of the connection's prepared statement whose text has `fragment`. */
const genericPlanOf = async (db: Db, fragment: string) => {
  const [prepared] = (
    await sql<{ statement: string }>`
      select statement from pg_prepared_statements where statement like ${`%${fragment}%`}`.execute(db)
  ).rows
  if (!prepared) throw new Error(`no prepared statement with ${fragment}`)
  await sql`set plan_cache_mode = force_generic_plan`.execute(db)
  await sql.raw(`prepare generic_probe as ${prepared.statement}`).execute(db)
  const plan = await sql<{ 'QUERY PLAN': string }>`explain execute generic_probe('{a-1}', '{0}')`.execute(db)
  await sql`deallocate generic_probe; reset plan_cache_mode`.execute(db)
  return plan.rows.map((row) => row['QUERY PLAN']).join('\n')
}

// PostgreSQL makes five custom plans of a prepared statement before it weighs a generic one: of
// eight runs, three use the generic plan when PostgreSQL keeps it, none when it plans every run.
describe('the hot reads keep a generic plan instead of being planned on every run', () => {
  const withStore = async (run: (db: Db, store: ReturnType<typeof createSqlEventStore>) => Promise<void>) => {
    const fresh = await freshPostgres()
    // One connection, so the reads' prepared statements are the ones the view shows.
    const one = await openDatabase({ kind: 'postgres', url: fresh.url, poolSize: 1 })
    const store = createSqlEventStore(one.db)
    try {
      for (const stream of ['a-1', 'b-1'])
        await store.appendToStream(stream, [anEvent(), anEvent()], { expectedVersion: 'no_stream' })
      // A log of some size, its statistics known: on a few rows any plan is cheap, and PostgreSQL
      // keeps the generic one whatever the statement's shape. 100 streams of 200 events: a generic
      // plan that guesses long streams is tempted to scan the whole log rather than each stream.
      await sql`
        insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
        select gen_random_uuid(), 'filler-' || g % 100, g / 100 + 1, 'Filler', '{}', '{}'
        from generate_series(0, 19999) g`.execute(one.db)
      await sql`analyze tessera_events`.execute(one.db)
      await run(one.db, store)
    } finally {
      await store.close()
      await one.close()
      await fresh.close()
    }
  }

  test('the coalesced stream read', () =>
    withStore(async (db) => {
      const reads = coalescedStreamReads(db, true)
      for (let read = 0; read < 8; read += 1) {
        const events = await Promise.all([reads.read('a-1', 0), reads.read('b-1', 1)])
        expect(events.map((stream) => stream.length)).toEqual([2, 1])
      }
      expect(await plansOf(db, 'with ordinality as r(wanted, after_version, i)')).toEqual([
        { generic_plans: '3', custom_plans: '5' },
      ])
      // The generic plan, which guesses the streams' count, still reads each stream through its
      // index: a join the planner was free to reorder once scanned the whole log for a few streams.
      expect(await genericPlanOf(db, 'with ordinality as r(wanted, after_version, i)')).not.toMatch(
        /Seq Scan on tessera_(events|data_keys)/,
      )
    }))

  test('the log read in the global order', () =>
    withStore(async (db, store) => {
      for (let read = 0; read < 8; read += 1)
        expect(await store.readAll({ tx: 0n, seq: 0n }, 10)).toHaveLength(10)
      expect(await plansOf(db, 'pg_snapshot_xmin(pg_current_snapshot())')).toEqual([
        { generic_plans: '3', custom_plans: '5' },
      ])
    }))
})
