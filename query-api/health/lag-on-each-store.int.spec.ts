/// The lag /ready, /metrics and `projections status` report, on each event store: the end of the log
/// comes from the store (the SQL table, or KurrentDB's `$all`, here over the in-memory stand-in),
/// so a stopped projector shows behind on both, and caught up once it runs again.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventStore } from '../../infra/event-store/event-store.js'
import { createInMemoryLog } from '../../infra/event-store/kurrentdb/in-memory-log.fixture.js'
import { createKurrentDbEventStore } from '../../infra/event-store/kurrentdb/kurrentdb-event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { createProjector, type Projector } from '../../projections/runner/projector.js'
import { measureLag } from '../../projections/runner/projector-lag.js'
import { freshPglite } from '../../tests/support/databases.js'
import {
  appendCounted,
  countingProjection,
  createApplicationsTable,
} from '../../tests/support/projector-fixtures.js'
import { createReadiness } from './readiness.js'

type OpenDatabase = Awaited<ReturnType<typeof freshPglite>>

/** How old the KurrentDB stand-in makes its records: the lag's age must come from them. */
const RECORDS_AGE_MS = 42_000

const stores: Record<string, { recordsAgeSeconds: number; open: (database: OpenDatabase) => EventStore }> = {
  'SQL (PGlite)': { recordsAgeSeconds: 0, open: (database) => createSqlEventStore(database.db) },
  'KurrentDB adapter over the in-memory log': {
    recordsAgeSeconds: RECORDS_AGE_MS / 1000,
    open: (database) =>
      createKurrentDbEventStore({
        log: createInMemoryLog(() => Date.now() - RECORDS_AGE_MS),
        inline: { db: database.db, hook: async () => {} },
      }),
  },
}

for (const [name, { recordsAgeSeconds, open }] of Object.entries(stores)) {
  describe(`projector lag on ${name}`, () => {
    let database: OpenDatabase
    let store: EventStore
    let projector: Projector

    beforeEach(async () => {
      database = await freshPglite()
      store = open(database)
      await createApplicationsTable(database.db)
      projector = createProjector({ db: database.db, store, projections: [countingProjection('a')] })
    })
    afterEach(async () => {
      await projector.stop()
      await store.close()
      await database.close()
    })

    it('shows the events appended while the projector is stopped, and none once it has caught up', async () => {
      await projector.start()
      const applied = await appendCounted(store, 's', [1, 2])
      expect(await projector.waitFor(applied.position, 5000)).toBe(true)
      expect(await measureLag(database.db, store, 'read-models')).toMatchObject({
        behindEvents: 0,
        behindSeconds: 0,
        heldByHorizon: 0,
      })

      await projector.stop()
      await appendCounted(store, 's', [3])
      const last = await appendCounted(store, 't', [4, 5])
      const behind = await measureLag(database.db, store, 'read-models')
      expect(behind).toMatchObject({ behindEvents: 3, heldByHorizon: 0 })
      expect(behind.behindSeconds).toBeGreaterThanOrEqual(recordsAgeSeconds)
      expect(behind.behindSeconds).toBeLessThan(recordsAgeSeconds + 30)

      // What /ready and /metrics say, with the threshold below the stand-in's age where it has one.
      const readiness = createReadiness({ db: database.db, store, projector, maxLagSeconds: 10 })
      const report = await readiness.check()
      expect(report.ready).toBe(false)
      expect(report.lag.behindEvents).toBe(3)
      expect(await readiness.metrics()).toContain('tessera_projector_lag_events{group="read-models"} 3\n')

      await projector.start()
      expect(await projector.waitFor(last.position, 5000)).toBe(true)
      expect(await measureLag(database.db, store, 'read-models')).toMatchObject({
        behindEvents: 0,
        behindSeconds: 0,
      })
    })
  })
}
