/// The batched path (write-behind.ts) of a long batch: a failure anywhere in it, thrown by a
/// projection or raised by the database only when the held-back writes are sent, halts at the very
/// event that fails, and the checkpoint never passes it.

import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { EventStore, RecordedEvent } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  asRow,
  COUNTED,
  checkpointRow,
  countingProjection,
  createApplicationsTable,
  faultProjection,
} from '../../tests/support/projector-fixtures.js'
import type { Projection } from '../projection.js'
import { ProjectionError, WRITE_BEHIND_FROM } from './apply-batch.js'
import { createProjector } from './projector.js'

const EVENTS = 40
const nOf = (event: RecordedEvent) => (event.data as { n: number }).n

/** Writes each counted event's number under a unique key; at `clash` it writes 1 again. */
const keysProjection = (clash: number): Projection => ({
  name: 'keys',
  tables: [],
  async apply(trx, event) {
    if (event.type !== COUNTED) return
    const n = nOf(event)
    await sql`insert into test_keys (k) values (${n === clash ? 1 : n})`.execute(trx)
  },
})

describeEachDatabase('projector, batched path', (fresh) => {
  let database: OpenDatabase
  let store: EventStore

  beforeEach(async () => {
    database = await fresh()
    store = createSqlEventStore(database.db, { singleBackend: database.kind === 'pglite' })
    await createApplicationsTable(database.db)
    await sql`create table test_keys (k integer primary key)`.execute(database.db)
  })
  afterEach(async () => {
    await store.close()
    await database.close()
  })

  const projector = (projections: readonly Projection[]) =>
    createProjector({
      db: database.db,
      store,
      projections,
      batchSize: 100,
      singleBackend: database.kind === 'pglite',
    })

  const failure = async (run: Promise<void>): Promise<ProjectionError> => {
    const error = await run.then(
      () => null,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(ProjectionError)
    return error as ProjectionError
  }

  it('a projection throwing at the 25th of 40 events halts there; nothing before it passes the checkpoint in that batch', async () => {
    expect(EVENTS).toBeGreaterThanOrEqual(WRITE_BEHIND_FROM)
    const numbers = Array.from({ length: EVENTS }, (_, i) => i + 1)
    await appendCounted(store, 'counter', numbers)
    const fault = faultProjection((event) => event.type === COUNTED && nOf(event) === 25)
    const first = projector([countingProjection('first'), fault])

    expect(nOf((await failure(first.catchUp())).event)).toBe(25)
    expect(await applications(database.db)).toEqual([])
    expect(await checkpointRow(database.db)).toBeNull()

    // The retry applies the 24 before it in a batch of their own (the batched path again), then fails on it alone.
    expect(nOf((await failure(first.catchUp())).event)).toBe(25)
    const applied = await applications(database.db)
    expect(applied.map((row) => [row.n, row.applications])).toEqual(numbers.slice(0, 24).map((n) => [n, 1]))
    expect(first.status().fault).toBeNull()
    const all = await store.readAll({ tx: 0n, seq: 0n }, 100)
    expect(await checkpointRow(database.db)).toEqual(asRow((all[23] as RecordedEvent).position))

    fault.armed = false
    await first.catchUp()
    expect((await applications(database.db)).map((row) => [row.n, row.applications])).toEqual(
      numbers.map((n) => [n, 1]),
    )
    expect(await checkpointRow(database.db)).toEqual(asRow((all.at(-1) as RecordedEvent).position))
  })

  it('a write the database refuses only when the batch is sent is found at its event and projection', async () => {
    await appendCounted(
      store,
      'counter',
      Array.from({ length: EVENTS }, (_, i) => i + 1),
    )
    const error = await failure(projector([countingProjection('first'), keysProjection(30)]).catchUp())
    expect(error.projection).toBe('keys')
    expect(nOf(error.event)).toBe(30)
    expect(await applications(database.db)).toEqual([])
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from test_keys`.execute(database.db)
    expect(rows[0]?.n).toBe('0')
    expect(await checkpointRow(database.db)).toBeNull()
  })
})
