/// A full replay drops the indexes only readers use while it loads the tables and builds them again
/// at the end (deferred-indexes.ts): the same definitions afterwards, none during the load, and a
/// replay that stopped halfway leaves them to the next one.

import { randomUUID } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import { faultProjection, testMetadata } from '../../tests/support/projector-fixtures.js'
import { readModelTables, snapshotTables } from '../../tests/support/table-snapshot.js'
import { readModelProjections } from '../all.js'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'
import { replay } from './projector.js'

const READER_INDEXES = readModelProjections.flatMap((projection) => projection.readerIndexes ?? [])

/** Every index of the read models' schema with its definition, by name. */
const indexes = async (db: Kysely<Database>) => {
  const { rows } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes
    where schemaname = current_schema() order by indexname`.execute(db)
  return rows
}

const recorded = async (db: Kysely<Database>) =>
  (await sql<{ name: string }>`select name from tessera_deferred_indexes`.execute(db)).rows

describeEachDatabase('replay, reader-only indexes', (fresh) => {
  let database: OpenDatabase
  let store: EventStore

  beforeEach(async () => {
    database = await fresh()
    store = createSqlEventStore(database.db, { singleBackend: database.kind === 'pglite' })
    for (const n of [1, 2, 3]) {
      const userId = `u${n}`
      const data = { userId, email: `${userId}@x.test`, name: userId, image: null, emailVerified: false }
      await store.appendToStream(
        `user-${userId}`,
        [
          {
            id: randomUUID(),
            type: 'user.registered',
            data: { ...data, credential: null },
            metadata: testMetadata(),
          },
        ],
        { expectedVersion: 'no_stream' },
      )
    }
  })
  afterEach(async () => {
    await store.close()
    await database.close()
  })

  const replayWith = (projections: readonly Projection[]) =>
    replay({ db: database.db, store, projections, singleBackend: database.kind === 'pglite' })

  it('are absent while the events are applied and the same afterwards', async () => {
    expect(READER_INDEXES.length).toBeGreaterThan(0)
    const before = await indexes(database.db)
    expect(before.map((index) => index.name)).toEqual(expect.arrayContaining(READER_INDEXES))
    const seen: string[][] = []
    const looking: Projection = {
      name: 'looking',
      tables: [],
      async apply(trx) {
        const { rows } = await sql<{ name: string }>`
          select indexname as name from pg_indexes
          where schemaname = current_schema() and indexname = any(${READER_INDEXES}::text[])`.execute(trx)
        seen.push(rows.map((row) => row.name))
      },
    }
    await replayWith([...readModelProjections, looking])
    expect(seen).toHaveLength(3)
    expect(seen.flat()).toEqual([])
    expect(await indexes(database.db)).toEqual(before)
    expect(await recorded(database.db)).toEqual([])
  })

  it('a replay that stops halfway leaves them to the next replay, which builds them', async () => {
    await replayWith(readModelProjections)
    const before = await indexes(database.db)
    const rows = await snapshotTables(database.db, readModelTables())
    expect(rows.users).toHaveLength(3)
    const fault = faultProjection((event) => (event.data as { userId?: string }).userId === 'u2')
    await expect(replayWith([...readModelProjections, fault])).rejects.toThrow(/injected fault/)
    expect((await recorded(database.db)).map((row) => row.name).sort()).toEqual([...READER_INDEXES].sort())
    expect((await indexes(database.db)).map((index) => index.name)).not.toContain(READER_INDEXES[0])
    await replayWith(readModelProjections)
    expect(await indexes(database.db)).toEqual(before)
    expect(await recorded(database.db)).toEqual([])
    expect(await snapshotTables(database.db, readModelTables())).toEqual(rows)
  })
})
