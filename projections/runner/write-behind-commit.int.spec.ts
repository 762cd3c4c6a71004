/// On PostgreSQL the batched path's last text ends its transaction (write-behind.ts): the commit
/// travels with the held-back writes, not as a statement of its own, and the batch is applied and
/// its checkpoint moved all the same.

import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EventStore, RecordedEvent } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPostgres, type PostgresDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  asRow,
  checkpointRow,
  countingProjection,
  createApplicationsTable,
} from '../../tests/support/projector-fixtures.js'
import type { Database } from '../database.js'
import { WRITE_BEHIND_FROM } from './apply-batch.js'
import { createProjector } from './projector.js'

let database: PostgresDatabase
let store: EventStore
let sent: string[]
let recording: Kysely<Database>

/** A pool whose connections note the text of every query they send. */
const recordingDb = (url: string): Kysely<Database> => {
  class RecordingClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this forwards them
    override query(config: any, values?: any, callback?: any): any {
      sent.push(typeof config === 'string' ? config : config.text)
      return super.query(config, values, callback)
    }
  }
  return new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, Client: RecordingClient }) }),
  })
}

beforeEach(async () => {
  database = await freshPostgres()
  store = createSqlEventStore(database.db, { singleBackend: false })
  await createApplicationsTable(database.db)
  sent = []
  recording = recordingDb(database.url)
})
afterEach(async () => {
  await recording.destroy()
  await store.close()
  await database.close()
})

it('a batch of several events sends its commit in the text of its writes, and is applied', async () => {
  const numbers = [1, 2, 3, 4, 5]
  expect(numbers.length).toBeGreaterThanOrEqual(WRITE_BEHIND_FROM)
  await appendCounted(store, 'counter', numbers)
  const projector = createProjector({
    db: recording,
    store,
    projections: [countingProjection('first')],
    batchSize: 100,
    singleBackend: false,
  })

  await projector.catchUp()

  const texts = sent.map((text) => text.trim().toLowerCase())
  expect(texts.filter((text) => text === 'begin')).toHaveLength(1)
  expect(texts.filter((text) => text === 'commit')).toEqual([])
  expect(
    texts.filter((text) => text.includes('insert into test_applications') && text.endsWith('commit;')),
  ).toHaveLength(1)
  expect((await applications(database.db)).map((row) => row.n)).toEqual(numbers)
  const all = await store.readAll({ tx: 0n, seq: 0n }, 100)
  expect(await checkpointRow(database.db)).toEqual(asRow((all.at(-1) as RecordedEvent).position))
  const { rows } = await sql<{ open: number }>`select count(*)::int as open from pg_stat_activity
    where datname = current_database() and state like 'idle in transaction%'`.execute(database.db)
  expect(rows[0]?.open).toBe(0)
})
