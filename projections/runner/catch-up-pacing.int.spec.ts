import { afterEach, beforeEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  countingProjection,
  createApplicationsTable,
} from '../../tests/support/projector-fixtures.js'
import type { CatchUpPacing } from './catch-up-pacing.js'
import { createProjector, type ProjectorOptions } from './projector.js'

describeEachDatabase('catch-up pacing', (fresh) => {
  let database: OpenDatabase
  let store: EventStore

  beforeEach(async () => {
    database = await fresh()
    store = createSqlEventStore(database.db, { singleBackend: database.kind === 'pglite' })
    await createApplicationsTable(database.db)
  })
  afterEach(async () => {
    await store.close()
    await database.close()
  })

  const BUSY = { idleTransactionsPerSecond: 100, busyTransactionsPerSecond: 1_000 }

  /** 30 events in the log, and a projector of them, 5 a batch, with the clock, rests and pacing given. */
  const thirtyEventsAnd = async (options: Pick<ProjectorOptions, 'clock' | 'sleep' | 'pacing'>) => {
    await appendCounted(
      store,
      'counted',
      Array.from({ length: 30 }, (_, n) => n),
    )
    return createProjector({
      db: database.db,
      store,
      projections: [countingProjection('a')],
      singleBackend: database.kind === 'pglite',
      batchSize: 5,
      ...options,
    })
  }

  /**
   * Catches up the 30 events under a clock that moves 10 ms each time it is read (a batch's start,
   * then its end): each batch takes 10 ms. The rests the projector asked for, in order.
   */
  const catchUpResting = async (pacing: CatchUpPacing | undefined) => {
    let readings = 0
    const rests: number[] = []
    const projector = await thirtyEventsAnd({
      clock: () => 10 * readings++,
      sleep: async (ms) => {
        rests.push(ms)
      },
      ...(pacing ? { pacing } : {}),
    })
    await projector.catchUp()
    expect(await applications(database.db)).toHaveLength(30)
    return rests
  }

  it('rests after each batch in proportion to its work while more than farBehindEvents lie ahead, and not near the head', async () => {
    // After the batches ending at events 5, 10 and 15, 25, 20 and 15 events lie ahead (≥ 12): a rest
    // of twice the batch's 10 ms each. From event 20 on (10 ahead and fewer), none.
    // Three batches cannot fill a rate window: the database counts as busy, the whole rest is taken.
    expect(await catchUpResting({ ...BUSY, farBehindEvents: 12, restPerWork: 2 })).toEqual([20, 20, 20])
  })

  it('a stop during a paced catch-up ends it after the batch it is resting from', async () => {
    let stopping: Promise<void> | null = null
    const projector = await thirtyEventsAnd({
      pacing: { ...BUSY, farBehindEvents: 1, restPerWork: 1 },
      sleep: async () => {
        // The process is told to stop while the projector rests after its first batch.
        stopping ??= projector.stop()
      },
    })
    await projector.start()
    await stopping
    // Without the stop it would have gone on to all 30 (and so would a projector never started).
    expect(await applications(database.db)).toHaveLength(5)
  })

  it('never rests without pacing (a replay, or a server that catches up before it serves)', async () => {
    expect(await catchUpResting(undefined)).toEqual([])
  })
})
