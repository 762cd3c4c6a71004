/// One batch's transaction as the database sees it: on PostgreSQL, how many round trips it takes;
/// on both databases, that a batch whose checkpoint another projector moved first applies nothing.

import { Kysely, PostgresDialect, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadPg } from '../../infra/db/load-pg.js'
import { namingClient } from '../../infra/db/pg-prepared.js'
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
import type { Projection } from '../projection.js'
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
      dialect: new PostgresDialect({
        // Statements named as Tessera's pool names them.
        pool: new (loadPg().Pool)({ connectionString: database.url, Client: namingClient(loadPg()) }),
      }),
      log: (event) => void sent.push(event.query.sql),
    })
  })

  afterEach(async () => {
    await logged.destroy()
    await database.close()
  })

  it('goes in one round trip when no projection reads: the move and the writes, one text, one transaction', async () => {
    const store = createSqlEventStore(database.db)
    await appendCounted(store, 's', [1, 2])
    const first = await store.readAll(START, 10)
    // The first batch also learns what the database takes (one text of several statements, its keys).
    await applyBatchInTransaction(logged, batchOf(first))
    await appendCounted(store, 's', [3, 4, 5])
    const second = await store.readAll(first.at(-1)?.position ?? START, 10)
    sent.length = 0

    expect(await applyBatchInTransaction(logged, batchOf(second, first.at(-1)?.position))).toBeNull()

    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatch(
      /^\/\* tessera projector batch \*\/\s+with locked as[\s\S]*insert into test_applications/,
    )
    expect(sent[0]).not.toMatch(/\b(begin|commit)\b/)
    expect((await applications(database.db)).map((a) => a.n)).toEqual([1, 2, 3, 4, 5])
    expect(await checkpointRow(database.db)).toEqual(asRow(second.at(-1)?.position ?? START))
  })

  it('a projection that reads opens the transaction first: begin with the move, then its read', async () => {
    const store = createSqlEventStore(database.db)
    await appendCounted(store, 's', [1, 2])
    const events = await store.readAll(START, 10)
    const reading: Projection = {
      name: 'reading',
      tables: [],
      apply: async (trx) => void (await sql`select count(*) from test_applications`.execute(trx)),
    }

    const batch = { ...batchOf(events), projections: [reading, countingProjection('a')] }
    expect(await applyBatchInTransaction(logged, batch)).toBeNull()

    const trips = sent.filter((text) => !/^(\/\* several|\s*select c.relname)/.test(text))
    expect(trips[0]).toMatch(/^\/\* tessera projector batch \*\/\s+begin;\s+with locked as/)
    expect(trips[1]).toMatch(/^select count/)
    expect(trips.at(-1)).toMatch(/insert into test_applications[\s\S]*;\s*commit;\s*$/)
    expect((await applications(database.db)).map((a) => a.n)).toEqual([1, 2])
  })

  it('a lone event goes begin with the move, its write, then commit', async () => {
    const store = createSqlEventStore(database.db)
    await appendCounted(store, 's', [1])
    const events = await store.readAll(START, 10)

    expect(await applyBatchInTransaction(logged, batchOf(events))).toBeNull()

    const trips = sent.filter((text) => !text.startsWith('/* several'))
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
