/// On PostgreSQL the applier projects and plans the next full batch while the database applies the
/// current one (detached-batch.ts, projector-roles.ts), and applies it once that one committed; a
/// batch that fails leaves nothing prepared behind it, and a projection that reads gets its batch
/// applied with the database behind it.

import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPostgres, type PostgresDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  COUNTED,
  countingProjection,
  createApplicationsTable,
  faultProjection,
} from '../../tests/support/projector-fixtures.js'
import type { Projection } from '../projection.js'
import { createProjector, type Projector } from './projector.js'

let database: PostgresDatabase
let store: EventStore

beforeEach(async () => {
  database = await freshPostgres()
  store = createSqlEventStore(database.db, { singleBackend: false })
  await createApplicationsTable(database.db)
})
afterEach(async () => {
  await store.close()
  await database.close()
})

const numberOf = (event: RecordedEvent) => (event.data as { n: number }).n

/** A projector in batches of 4 that has applied a first batch of two (it reads the table facts). */
const warmedUp = async (projections: readonly Projection[]): Promise<Projector> => {
  const projector = createProjector({
    db: database.db,
    store,
    projections,
    batchSize: 4,
    singleBackend: false,
  })
  await appendCounted(store, 'warm-up', [-1, 0])
  await projector.catchUp()
  return projector
}

it('projects the next batch before the one being applied is taken as committed', async () => {
  // Where the projector stood when each event was first projected.
  const seenAt = new Map<number, GlobalPosition>()
  let projector: Projector | null = null
  const watching: Projection = {
    name: 'watching',
    tables: [],
    async apply(_trx, event) {
      if (projector && !seenAt.has(numberOf(event))) seenAt.set(numberOf(event), projector.position())
    },
  }
  projector = await warmedUp([countingProjection('a'), watching])
  await appendCounted(store, 's', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])

  await projector.catchUp()

  const positionOf = new Map(
    (await store.readAll(START, 100)).map((event) => [numberOf(event), event.position]),
  )
  const endOfFirstBatch = positionOf.get(4) as GlobalPosition
  // Batch 5..8 was projected while batch 1..4 was applied: before the projector stood at its end.
  expect(comparePositions(seenAt.get(5) as GlobalPosition, endOfFirstBatch)).toBeLessThan(0)
  expect(comparePositions(seenAt.get(9) as GlobalPosition, positionOf.get(8) as GlobalPosition)).toBeLessThan(
    0,
  )
  expect((await applications(database.db)).map((row) => [row.n, row.applications])).toEqual(
    [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => [n, 1]),
  )
})

it('a failed batch leaves nothing of the next, prepared meanwhile; the result is the event-by-event one', async () => {
  const fault = faultProjection((event) => event.type === COUNTED && numberOf(event) === 6)
  const projector = await warmedUp([countingProjection('a'), fault])
  await appendCounted(store, 's', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])

  const failure = await projector.catchUp().catch((error: unknown) => error)

  expect(failure).toMatchObject({ name: 'ProjectionError', projection: 'fault' })
  expect(numberOf((failure as { event: RecordedEvent }).event)).toBe(6)
  // Batch 1..4 committed; nothing of 5..8 nor of 9..12 (prepared while 5..8 was applied).
  expect((await applications(database.db)).map((row) => row.n)).toEqual([-1, 0, 1, 2, 3, 4])
  fault.armed = false
  await projector.catchUp()
  expect((await applications(database.db)).map((row) => [row.n, row.applications])).toEqual(
    [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => [n, 1]),
  )
})

it('a projection that reads has its batch applied with the database behind it, reading the writes before', async () => {
  const ordinal: Projection = {
    name: 'ordinal',
    tables: [],
    async apply(trx, event) {
      if (event.type !== COUNTED) return
      let before = -1
      try {
        const { rows } = await sql<{
          count: number
        }>`select count(*)::int as count from test_applications`.execute(trx)
        before = rows[0]?.count ?? -1
      } catch {
        // Swallowed on purpose: the batch must not be prepared all the same.
      }
      await sql`insert into test_applications (event_id, n, applied_by) values (${event.id}, ${before}, 'ordinal')`.execute(
        trx,
      )
    },
  }
  const projector = await warmedUp([ordinal])
  await appendCounted(store, 's', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])

  await projector.catchUp()

  expect((await applications(database.db)).map((row) => row.n)).toEqual([
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
  ])
})

it('a prepared batch the database refuses is applied again event by event, and fails at its event', async () => {
  await sql`create table test_refusing (n integer not null check (n <> 6))`.execute(database.db)
  const refusing: Projection = {
    name: 'refusing',
    tables: [],
    async apply(trx, event) {
      if (event.type === COUNTED)
        await sql`insert into test_refusing (n) values (${numberOf(event)})`.execute(trx)
    },
  }
  const projector = await warmedUp([countingProjection('a'), refusing])
  await appendCounted(store, 's', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])

  const failure = await projector.catchUp().catch((error: unknown) => error)

  expect(failure).toMatchObject({ name: 'ProjectionError', projection: 'refusing' })
  expect(numberOf((failure as { event: RecordedEvent }).event)).toBe(6)
  expect((await applications(database.db)).map((row) => row.n)).toEqual([-1, 0, 1, 2, 3, 4])
})
