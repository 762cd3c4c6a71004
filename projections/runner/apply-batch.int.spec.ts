/// One batch's transaction as the database sees it: on PostgreSQL, how many round trips it takes;
/// on both databases, that a batch whose checkpoint another projector moved first applies nothing.

import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type RecordedEvent, START } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase, freshPostgres, type PostgresDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  asRow,
  checkpointRow,
  countingProjection,
  createApplicationsTable,
} from '../../tests/support/projector-fixtures.js'
import type { Database } from '../database.js'
import { applyBatchInTransaction, type Batch } from './apply-batch.js'

const batchOf = (events: readonly RecordedEvent[], expected = START): Batch => ({
  group: 'read-models',
  projections: [countingProjection('a')],
  events,
  expected,
  skip: new Set(),
  singleBackend: false,
})

describe('a batch on PostgreSQL', () => {
  let database: PostgresDatabase
  let logged: Kysely<Database>
  const sent: string[] = []

  beforeEach(async () => {
    database = await freshPostgres()
    await createApplicationsTable(database.db)
    sent.length = 0
    // Every text sent to the database, `begin` and `commit` included.
    logged = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }),
      log: (event) => void sent.push(event.query.sql),
    })
  })

  afterEach(async () => {
    await logged.destroy()
    await database.close()
  })

  it('goes in two round trips: begin with the checkpoint move, the held-back writes with commit', async () => {
    const store = createSqlEventStore(database.db)
    await appendCounted(store, 's', [1, 2])
    const first = await store.readAll(START, 10)
    // The first batch also learns what the database takes (one text of several statements, its keys).
    await applyBatchInTransaction(logged, batchOf(first))
    await appendCounted(store, 's', [3, 4, 5])
    const second = await store.readAll(first.at(-1)?.position ?? START, 10)
    sent.length = 0

    expect(await applyBatchInTransaction(logged, batchOf(second, first.at(-1)?.position))).toBeNull()

    expect(sent).toHaveLength(2)
    expect(sent[0]).toMatch(/^begin;\s+with locked as/)
    expect(sent[1]).toMatch(/insert into test_applications[\s\S]*;\s*commit;\s*$/)
    expect((await applications(database.db)).map((a) => a.n)).toEqual([1, 2, 3, 4, 5])
    expect(await checkpointRow(database.db)).toEqual(asRow(second.at(-1)?.position ?? START))
  })

  it('a lone event goes begin with the move, its write, then commit', async () => {
    const store = createSqlEventStore(database.db)
    await appendCounted(store, 's', [1])
    const events = await store.readAll(START, 10)

    expect(await applyBatchInTransaction(logged, batchOf(events))).toBeNull()

    const trips = sent.filter((text) => !text.startsWith('select 1;'))
    expect(trips.map((text) => text.trim().split(/\s+/)[0])).toEqual(['begin;', 'insert', 'commit'])
    expect((await applications(database.db)).map((a) => a.n)).toEqual([1])
  })
})

describeEachDatabase('a batch whose checkpoint another projector moved first', (fresh) => {
  let database: Awaited<ReturnType<typeof fresh>>

  beforeEach(async () => {
    database = await fresh()
    await createApplicationsTable(database.db)
  })

  afterEach(() => database.close())

  for (const count of [1, 3])
    it(`applies none of its ${count} event(s) and answers where the checkpoint is`, async () => {
      const store = createSqlEventStore(database.db, { singleBackend: database.kind === 'pglite' })
      await appendCounted(store, 's', [1, 2, 3].slice(0, count))
      const events = await store.readAll(START, 10)
      const elsewhere = { tx: 1n, seq: 7n }
      await database.db
        .insertInto('tessera_checkpoints')
        .values({ name: 'read-models', tx: '1', seq: '7' })
        .execute()

      const singleBackend = database.kind === 'pglite'
      expect(await applyBatchInTransaction(database.db, { ...batchOf(events), singleBackend })).toEqual(
        elsewhere,
      )

      expect(await applications(database.db)).toEqual([])
      expect(await checkpointRow(database.db)).toEqual(asRow(elsewhere))
    })
})
