/// Several projector instances over one database, as several processes would run them: on
/// PostgreSQL each has its own connection pool and its own LISTEN; PGlite is one embedded database,
/// so there the instances share its single connection.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type OpenDatabase, openDatabase } from '../../infra/db/database.js'
import {
  type EventStore,
  formatPosition,
  type RecordedEvent,
  START,
} from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import {
  type DatabaseKind,
  databaseKinds,
  freshPglite,
  freshPostgres,
} from '../../tests/support/databases.js'
import {
  appendCounted,
  applications,
  asRow,
  checkpointRow,
  countingProjection,
  createApplicationsTable,
  gateProjection,
  latest,
  testMetadata,
} from '../../tests/support/projector-fixtures.js'
import { readModelTables, snapshotTables } from '../../tests/support/table-snapshot.js'
import { readModelProjections } from '../all.js'
import type { Projection } from '../projection.js'
import { createProjector, type Projector, replay } from './projector.js'

type Process = { database: OpenDatabase; store: EventStore }

/** Two "processes" on one fresh database; the first owns (and drops) it. */
const twoProcesses = async (kind: DatabaseKind): Promise<[Process, Process]> => {
  const processOn = (database: OpenDatabase): Process => ({
    database,
    store: createSqlEventStore(database.db, {
      ...(database.listenForCommits ? { listenForCommits: database.listenForCommits } : {}),
      singleBackend: database.kind === 'pglite',
    }),
  })
  if (kind === 'pglite') {
    const shared = await freshPglite()
    return [processOn(shared), processOn({ ...shared, close: async () => {} })]
  }
  const owner = await freshPostgres()
  return [processOn(owner), processOn(await openDatabase({ kind: 'postgres', url: owner.url }))]
}

for (const kind of databaseKinds) {
  describe(`projector instances sharing a database (${kind})`, () => {
    let processes: [Process, Process]
    const projectors: Projector[] = []
    const projectorIn = (
      at: Process,
      projections: readonly Projection[],
      options: { batchSize?: number } = {},
    ) => {
      const created = createProjector({
        db: at.database.db,
        store: at.store,
        projections,
        singleBackend: kind === 'pglite',
        ...options,
      })
      projectors.push(created)
      return created
    }

    beforeEach(async () => {
      processes = await twoProcesses(kind)
      await createApplicationsTable(processes[0].database.db)
    })
    afterEach(async () => {
      for (const created of projectors.splice(0)) await created.stop()
      // The second goes first: on PostgreSQL the first drops the database.
      for (const { database, store } of [...processes].reverse()) {
        await store.close()
        await database.close()
      }
    })

    it('two apply-mode projectors racing over one log apply every event exactly once', async () => {
      const [a, b] = processes
      const first = projectorIn(a, [countingProjection('a')], { batchSize: 3 })
      const second = projectorIn(b, [countingProjection('b')], { batchSize: 3 })
      await Promise.all([first.start(), second.start()])

      // 20 writers over both connections, 10 appends each: the projectors wake on every commit.
      const appended = await Promise.all(
        Array.from({ length: 20 }, async (_, writer) => {
          const at = processes[writer % 2] ?? a
          const positions = []
          for (let i = 0; i < 10; i++)
            positions.push((await appendCounted(at.store, `w${writer}`, [writer * 10 + i])).position)
          return positions
        }),
      )
      const last = latest(appended.flat())
      expect(await first.waitFor(last, 20_000)).toBe(true)
      expect(await second.waitFor(last, 20_000)).toBe(true)

      const rows = await applications(a.database.db)
      // Named with their positions, so a failure shows where in the log the gap or repeat is.
      const applied = new Set(rows.map((row) => row.n))
      const log = await a.store.readAll(START, 1000)
      const skipped = log.filter((event) => !applied.has((event.data as { n: number }).n))
      expect(
        skipped.map((event) => `${(event.data as { n: number }).n}@${formatPosition(event.position)}`),
      ).toEqual([])
      expect(rows.filter((row) => row.applications !== 1)).toEqual([])
      expect(rows).toHaveLength(200)
      expect(await checkpointRow(a.database.db)).toEqual(asRow(last))
    })

    it('when both read the same batch, one applies it and the other reports it to its listeners', async () => {
      const [a, b] = processes
      const appended = await appendCounted(a.store, 'counter', [1, 2, 3, 4, 5])
      const first = projectorIn(a, [countingProjection('a')], { batchSize: 2 })
      const second = projectorIn(b, [countingProjection('b')], { batchSize: 2 })
      const heard: Record<'a' | 'b', string[]> = { a: [], b: [] }
      first.onApplied((events) => heard.a.push(...events.map((event) => event.id)))
      second.onApplied((events) => heard.b.push(...events.map((event) => event.id)))

      // Not started, so each reads a batch before either commits one.
      await Promise.all([first.catchUp(), second.catchUp()])

      const rows = await applications(a.database.db)
      expect(rows.map((row) => [row.n, row.applications])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 1]))
      const ids = (await a.store.readStream('counter')).map((event) => event.id)
      // A cache beside either instance is evicted by every event, whoever applied it.
      expect(heard.a).toEqual(ids)
      expect(heard.b).toEqual(ids)
      expect(first.position()).toEqual(appended.position)
      expect(second.position()).toEqual(appended.position)
    })

    it("a follow-mode projector's waitFor resolves once another process applies the position", async () => {
      const [a, b] = processes
      const follower = createProjector({ db: b.database.db, store: b.store, projections: [], mode: 'follow' })
      projectors.push(follower)
      await follower.start()
      const applier = projectorIn(a, [countingProjection('a')])
      const appended = await appendCounted(b.store, 'counter', [1])

      expect(await follower.waitFor(appended.position, 200)).toBe(false)
      expect(await applications(a.database.db)).toEqual([])

      const waiting = follower.waitFor(appended.position, 10_000)
      await applier.catchUp()
      expect(await waiting).toBe(true)
      expect(follower.position()).toEqual(appended.position)
    })

    it('replay while a live projector holds a batch open waits for it, then rebuilds without duplicates', async () => {
      const [a, b] = processes
      const register = (userId: string) => registerUser(a.store, userId)
      await register('u1')
      const gate = gateProjection(
        (event: RecordedEvent) => (event.data as { userId?: string }).userId === 'u2',
      )
      const live = projectorIn(a, [...readModelProjections, gate], { batchSize: 1 })
      await live.catchUp()
      await register('u2')
      const held = live.catchUp()
      await gate.reached

      // `replay` runs from the other process (the CLI) while u2's row is written but not committed.
      const replayed = replay({ db: b.database.db, store: b.store, projections: readModelProjections })
      if (kind === 'postgres') await waitUntilBlocked(a.database)
      else await new Promise((resolve) => setTimeout(resolve, 50))
      gate.open()
      await held
      const last = await replayed

      const users = (await snapshotTables(a.database.db, readModelTables())).users ?? []
      expect(users.map((row) => row.id)).toEqual(['u1', 'u2'])
      expect(await checkpointRow(a.database.db)).toEqual(asRow(last))

      // The live projector, whose checkpoint the replay reset under it, carries on from the table's.
      const next = await register('u3')
      await live.catchUp()
      expect(live.position()).toEqual(next.position)
      const after = (await snapshotTables(a.database.db, readModelTables())).users ?? []
      expect(after.map((row) => row.id)).toEqual(['u1', 'u2', 'u3'])
    })

    it('a live projector whose read models a failed replay emptied rebuilds them from the stored checkpoint', async () => {
      const [a, b] = processes
      await registerUser(a.store, 'u1')
      const last = await registerUser(a.store, 'u2')
      const live = projectorIn(a, readModelProjections)
      await live.catchUp()
      expect(live.position()).toEqual(last.position)

      // The replay empties the tables and the checkpoint, then dies on its first event.
      const broken: Projection = {
        name: 'broken',
        tables: [],
        apply: async () => {
          throw new Error('replay died')
        },
      }
      await expect(
        replay({ db: b.database.db, store: b.store, projections: [...readModelProjections, broken] }),
      ).rejects.toThrow('replay died')
      expect(await checkpointRow(a.database.db)).toBeNull()

      await withTimeout(live.catchUp(), 10_000)
      expect(live.position()).toEqual(last.position)
      const users = (await snapshotTables(a.database.db, readModelTables())).users ?? []
      expect(users.map((row) => row.id)).toEqual(['u1', 'u2'])
      expect(await checkpointRow(a.database.db)).toEqual(asRow(last.position))
    })
  })
}

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms).unref(),
    ),
  ])

const registerUser = (store: EventStore, userId: string) =>
  store.appendToStream(
    `user-${userId}`,
    [
      {
        id: randomUUID(),
        type: 'user.registered',
        data: {
          userId,
          email: `${userId}@example.com`,
          name: userId,
          image: null,
          emailVerified: false,
          credential: null,
        },
        metadata: testMetadata(),
      },
    ],
    { expectedVersion: 'no_stream' },
  )

/** Resolves once some session of this database waits on a lock (the replay, behind the batch). */
const waitUntilBlocked = async ({ db }: OpenDatabase): Promise<void> => {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { rows } = await sql<{ waiting: string }>`
      select count(*)::text as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
    if (rows[0]?.waiting !== '0') return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('the replay never waited for the open batch')
}
