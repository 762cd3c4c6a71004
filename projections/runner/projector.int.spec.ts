import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import { type EventStore, type GlobalPosition, START } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  asRow,
  checkpointRow,
  countingProjection,
  createApplicationsTable,
  faultProjection,
  testMetadata,
} from '../../tests/support/projector-fixtures.js'
import { readModelTables, snapshotTables } from '../../tests/support/table-snapshot.js'
import { readModelProjections } from '../all.js'
import { createProjector, type Projector, replay } from './projector.js'

describeEachDatabase('projector', (fresh) => {
  let database: OpenDatabase
  let store: EventStore
  const projectors: Projector[] = []
  const projector = (options: Omit<Parameters<typeof createProjector>[0], 'db' | 'store'>) => {
    // As the server opens them: on PGlite without the locks that only keep out other backends.
    const created = createProjector({
      db: database.db,
      store,
      singleBackend: database.kind === 'pglite',
      ...options,
    })
    projectors.push(created)
    return created
  }

  beforeEach(async () => {
    database = await fresh()
    store = createSqlEventStore(database.db, { singleBackend: database.kind === 'pglite' })
    await createApplicationsTable(database.db)
  })
  afterEach(async () => {
    for (const created of projectors.splice(0)) await created.stop()
    await store.close()
    await database.close()
  })

  const register = (userId: string, email: string) =>
    store.appendToStream(
      `user-${userId}`,
      [
        {
          id: randomUUID(),
          type: 'user.registered',
          data: {
            userId,
            email,
            name: email,
            image: null,
            emailVerified: false,
            credential: { accountId: `account-${userId}`, passwordHash: 'hash' },
          },
          metadata: testMetadata(),
        },
      ],
      { expectedVersion: 'no_stream' },
    )

  const startSession = (sessionId: string, userId: string) =>
    store.appendToStream(
      `session-${sessionId}`,
      [
        {
          id: randomUUID(),
          type: 'session.started',
          data: {
            sessionId,
            userId,
            tokenHash: `hash-${sessionId}`,
            expiresAt: '2026-01-08T00:00:00.000Z',
            ipAddress: null,
            userAgent: null,
            rememberMe: true,
          },
          metadata: testMetadata(),
        },
      ],
      { expectedVersion: 'no_stream' },
    )

  /** The read models, the counting table and the checkpoint: everything a batch may change. */
  const everything = async () => ({
    tables: await snapshotTables(database.db, [...readModelTables(), 'test_applications']),
    checkpoint: await checkpointRow(database.db),
  })

  it('a fault on the 3rd event of a 5-event batch leaves read models and checkpoint as before; a restart applies each event once', async () => {
    await register('u1', 'one@example.com')
    await appendCounted(store, 'counter', [1, 2])
    const fault = faultProjection((event) => event.type === 'session.started')
    const projections = [...readModelProjections, countingProjection('first'), fault]
    const first = projector({ projections, batchSize: 5 })
    // Not started: a running projector would wake on each append and take the events one by one.
    await first.catchUp()
    const before = await everything()
    expect(before.tables.users).toHaveLength(1)
    expect(before.tables.test_applications).toHaveLength(2)
    const positionBefore = first.position()

    // One batch of five; the third event (the session) throws after the first two wrote rows and
    // after the sessions projection wrote its row for the third.
    await register('u2', 'two@example.com')
    await appendCounted(store, 'counter', [3])
    await startSession('s1', 'u2')
    const last = await appendCounted(store, 'counter', [4, 5])

    await expect(first.catchUp()).rejects.toThrow(/injected fault/)
    expect(await everything()).toEqual(before)
    expect(first.position()).toEqual(positionBefore)
    // Started, it retries until it is stopped: the "crash". The retry applies the events before
    // the one that failed in a batch of their own, and that event alone after them.
    await first.start()
    expect(await first.waitFor(last.position, 300)).toBe(false)
    await first.stop()
    const retried = await everything()
    expect(retried.tables.users?.map((row) => row.id)).toEqual(['u1', 'u2'])
    expect(retried.tables.sessions).toEqual([])
    expect(retried.tables.test_applications).toHaveLength(3)

    fault.armed = false
    const restarted = projector({
      projections: [...readModelProjections, countingProjection('restarted'), fault],
      batchSize: 5,
    })
    await restarted.start()
    expect(await restarted.waitFor(last.position, 5000)).toBe(true)

    expect(await applications(database.db)).toEqual([
      expect.objectContaining({ n: 1, appliedBy: 'first', applications: 1 }),
      expect.objectContaining({ n: 2, appliedBy: 'first', applications: 1 }),
      expect.objectContaining({ n: 3, appliedBy: 'first', applications: 1 }),
      expect.objectContaining({ n: 4, appliedBy: 'restarted', applications: 1 }),
      expect.objectContaining({ n: 5, appliedBy: 'restarted', applications: 1 }),
    ])
    const after = await everything()
    expect(after.tables.users?.map((row) => row.id)).toEqual(['u1', 'u2'])
    expect(after.tables.accounts?.map((row) => row.user_id)).toEqual(['u1', 'u2'])
    expect(after.tables.sessions?.map((row) => [row.id, row.user_id])).toEqual([['s1', 'u2']])
    expect(after.checkpoint).toEqual(asRow(last.position))
  })

  it('a retrying projector applies the batch once the fault is gone, without repeating its first half', async () => {
    const fault = faultProjection((event) => (event.data as { n?: number }).n === 3)
    const live = projector({ projections: [countingProjection('live'), fault], batchSize: 5 })
    await live.start()
    const last = await appendCounted(store, 'counter', [1, 2, 3, 4, 5])
    expect(await live.waitFor(last.position, 300)).toBe(false)
    expect(await applications(database.db)).toEqual([])
    expect(await checkpointRow(database.db)).toBeNull()

    fault.armed = false
    expect(await live.waitFor(last.position, 10_000)).toBe(true)
    expect((await applications(database.db)).map((row) => [row.n, row.applications])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 1],
    ])
  })

  it('a projector restarted from its stored checkpoint continues where it left off', async () => {
    const first = projector({ projections: [countingProjection('first')], batchSize: 3 })
    await first.start()
    const early = await appendCounted(store, 'counter', [1, 2, 3, 4])
    expect(await first.waitFor(early.position)).toBe(true)
    await first.stop()
    expect(await checkpointRow(database.db)).toEqual(asRow(early.position))

    await appendCounted(store, 'counter', [5, 6])
    const late = await appendCounted(store, 'other', [7])
    const second = projector({ projections: [countingProjection('second')], batchSize: 3 })
    await second.start()
    expect(await second.waitFor(late.position)).toBe(true)

    expect((await applications(database.db)).map((row) => [row.n, row.appliedBy, row.applications])).toEqual([
      [1, 'first', 1],
      [2, 'first', 1],
      [3, 'first', 1],
      [4, 'first', 1],
      [5, 'second', 1],
      [6, 'second', 1],
      [7, 'second', 1],
    ])
    expect(await checkpointRow(database.db)).toEqual(asRow(late.position))
  })

  it('keeps one checkpoint per group', async () => {
    const appended = await appendCounted(store, 'counter', [1])
    const reactor = projector({ projections: [], group: 'mailer' })
    await reactor.catchUp()
    expect(await checkpointRow(database.db, 'mailer')).toEqual(asRow(appended.position, 'mailer'))
    expect(await checkpointRow(database.db)).toBeNull()
    expect(reactor.position()).toEqual(appended.position)
  })

  it('waitFor resolves true once the read models include the position, and its rows are there', async () => {
    const live = projector({ projections: [countingProjection('live')] })
    await live.start()
    expect(await live.waitFor(START)).toBe(true)
    const appended = await appendCounted(store, 'counter', [1])
    expect(await live.waitFor(appended.position)).toBe(true)
    expect(await applications(database.db)).toHaveLength(1)
  })

  it('waitFor resolves false after the timeout when the projector is stopped, and nothing is applied', async () => {
    const live = projector({ projections: [countingProjection('live')] })
    await live.start()
    await live.stop()
    const appended = await appendCounted(store, 'counter', [1])
    const startedAt = Date.now()
    expect(await live.waitFor(appended.position, 250)).toBe(false)
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(240)
    expect(await applications(database.db)).toEqual([])
    expect(await checkpointRow(database.db)).toBeNull()
  })

  it('onApplied receives each committed batch with its events, in log order', async () => {
    const ids: string[] = []
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      await appendCounted(store, `s${n}`, [n])
      const [recorded] = await store.readStream(`s${n}`)
      if (recorded) ids.push(recorded.id)
    }
    const live = projector({ projections: [countingProjection('live')], batchSize: 3 })
    const batches: string[][] = []
    const follows: (GlobalPosition | undefined)[] = []
    const unsubscribe = live.onApplied((events, from) => {
      batches.push(events.map((event) => event.id))
      follows.push(from)
    })
    await live.catchUp()
    expect(batches).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)])
    // Each batch with the checkpoint it follows: the log's events after it begin with the batch's.
    const log = await store.readAll(START, 10)
    expect(follows).toEqual([START, log[2]?.position, log[5]?.position])

    unsubscribe()
    await appendCounted(store, 's8', [8])
    await live.catchUp()
    expect(batches).toHaveLength(3)
  })

  it('a catch-up before any start reads the log from the stored checkpoint, not from its start', async () => {
    await appendCounted(store, 'counter', [1, 2, 3, 4, 5, 6])
    await projector({ projections: [countingProjection('before')], batchSize: 2 }).catchUp()
    const stopped = await checkpointRow(database.db)
    const last = await appendCounted(store, 'counter', [7])
    const readsFrom: string[] = []
    const watched: EventStore = {
      ...store,
      readAll: (after, limit) => {
        readsFrom.push(`${after.tx}:${after.seq}`)
        return store.readAll(after, limit)
      },
    }
    const restarted = createProjector({
      db: database.db,
      store: watched,
      projections: [countingProjection('after')],
      batchSize: 2,
      singleBackend: database.kind === 'pglite',
    })
    projectors.push(restarted)
    const heard: number[] = []
    restarted.onApplied((events) => heard.push(...events.map((event) => (event.data as { n: number }).n)))

    await restarted.catchUp()
    // From the start, it read the six events again (three batches) only to adopt the stored checkpoint.
    expect(readsFrom[0]).toBe(`${stopped?.tx}:${stopped?.seq}`)
    expect(heard).toEqual([7])
    expect(restarted.position()).toEqual(last.position)
    expect((await applications(database.db)).map((row) => [row.n, row.applications])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => [n, 1]),
    )
  })

  it('a failing onApplied listener does not stop the projector or leave waitFor hanging', async () => {
    const live = projector({ projections: [countingProjection('live')] })
    const seen: number[] = []
    live.onApplied(() => {
      throw new Error('listener bug')
    })
    live.onApplied((events) => seen.push(events.length))
    await live.start()
    const first = await appendCounted(store, 'counter', [1])
    expect(await live.waitFor(first.position, 3000)).toBe(true)
    const second = await appendCounted(store, 'counter', [2])
    expect(await live.waitFor(second.position, 3000)).toBe(true)
    expect(seen).toEqual([1, 1])
    expect((await applications(database.db)).map((row) => row.applications)).toEqual([1, 1])
  })

  it('replay applies everything again from an empty read model and returns the last position', async () => {
    const live = projector({ projections: readModelProjections })
    await live.start()
    await register('u1', 'one@example.com')
    const last = await startSession('s1', 'u1')
    expect(await live.waitFor(last.position)).toBe(true)
    await live.stop()
    const before = await snapshotTables(database.db, readModelTables())
    expect(await replay({ db: database.db, store, projections: readModelProjections })).toEqual(last.position)
    expect(await snapshotTables(database.db, readModelTables())).toEqual(before)
    expect(await checkpointRow(database.db)).toEqual(asRow(last.position))
  })

  it('replay reads the log 2,000 events a batch, where the live projector reads 500', async () => {
    await register('u1', 'one@example.com')
    const limits: number[] = []
    const watched: EventStore = {
      ...store,
      readAll: (after, limit) => {
        limits.push(limit)
        return store.readAll(after, limit)
      },
    }
    await replay({ db: database.db, store: watched, projections: readModelProjections })
    expect(new Set(limits)).toEqual(new Set([2_000]))
    const live = createProjector({ db: database.db, store: watched, projections: [], group: 'live' })
    await live.catchUp()
    expect(limits.at(-1)).toBe(500)
  })
})
