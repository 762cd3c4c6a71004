/// What a catching-up projector paces itself by (catch-up-pacing.ts): PostgreSQL's count of the
/// transactions its database finished, other connections' among them.

import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { freshPostgres, type PostgresDatabase } from '../../tests/support/databases.js'
import { finishedTransactions } from './database-activity.js'

let database: PostgresDatabase

beforeEach(async () => {
  database = await freshPostgres()
})
afterEach(async () => {
  await database.close()
})

it("counts another connection's transactions, committed and rolled back, once it reports them", async () => {
  const before = await finishedTransactions(database.db)
  expect(before).not.toBeNull()
  const other = new pg.Client({ connectionString: database.url })
  await other.connect()
  try {
    for (let n = 0; n < 40; n++) await other.query('select 1')
    for (let n = 0; n < 10; n++) {
      await other.query('begin')
      await other.query('rollback')
    }
    // A backend reports its counts at most once a second; this one now, as it next goes idle.
    await other.query('select pg_stat_force_next_flush()')
    await other.query('select 1')
  } finally {
    await other.end()
  }
  const after = await finishedTransactions(database.db)
  expect((after as number) - (before as number)).toBeGreaterThanOrEqual(50)
})

it('is null where the statistics cannot be read, rather than a failure', async () => {
  await database.close()
  expect(await finishedTransactions(database.db)).toBeNull()
  // close() runs again in afterEach: open a database for it to drop.
  database = await freshPostgres()
})
