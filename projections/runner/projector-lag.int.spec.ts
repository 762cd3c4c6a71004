/// The cluster-wide xmin horizon, measured: a transaction that holds a transaction id, open anywhere
/// on the server, keeps the projector from reading events committed after it began, for as long as
/// it stays open. The lag shows in `measureLag` (what /ready and /metrics report).

import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EventStore } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase, type PostgresDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  countingProjection,
  createApplicationsTable,
} from '../../tests/support/projector-fixtures.js'
import { createProjector, type Projector } from './projector.js'
import { measureLag } from './projector-lag.js'

const HOLD_MS = 2000

describeEachDatabase(
  'the xmin horizon',
  (fresh) => {
    let database: PostgresDatabase
    let store: EventStore
    let projector: Projector
    let other: pg.Client

    beforeEach(async () => {
      database = (await fresh()) as PostgresDatabase
      store = createSqlEventStore(database.db)
      await createApplicationsTable(database.db)
      projector = createProjector({ db: database.db, store, projections: [countingProjection('a')] })
      await projector.start()
      other = new pg.Client({ connectionString: database.url })
      await other.connect()
    })
    afterEach(async () => {
      await other.end().catch(() => {})
      await projector.stop()
      await store.close()
      await database.close()
    })

    it(`a transaction held open ${HOLD_MS} ms holds the projector back as long, and the lag shows`, async () => {
      // Any transaction that has a transaction id: here one that only asked for it.
      await other.query('begin')
      await other.query('select pg_current_xact_id()')
      const committedAt = Date.now()
      const { position } = await appendCounted(store, 's', [1])
      expect(await projector.waitFor(position, HOLD_MS / 2)).toBe(false)

      const held = await measureLag(database.db, store, 'read-models')
      expect(held).toMatchObject({ behindEvents: 1, heldByHorizon: 1 })
      expect(held.oldestTransactionSeconds).toBeGreaterThanOrEqual(0.4)

      const release = setTimeout(() => void other.query('commit'), HOLD_MS - (Date.now() - committedAt))
      expect(await projector.waitFor(position, HOLD_MS * 3)).toBe(true)
      clearTimeout(release)
      const lagMs = Date.now() - committedAt
      console.log(`xmin horizon: an event committed while a transaction was open waited ${lagMs} ms`)
      expect(lagMs).toBeGreaterThanOrEqual(HOLD_MS - 50)
      expect(await measureLag(database.db, store, 'read-models')).toMatchObject({
        behindEvents: 0,
        heldByHorizon: 0,
      })
    })
  },
  ['postgres'],
)
