import pg from 'pg'
import { describe, expect, test, vi } from 'vitest'
import { freshPglite, freshPostgres } from '../../tests/support/databases.js'
import { openDatabase } from '../db/database.js'
import { describeEventStoreContract, type HeldAppend } from './event-store.contract.js'
import { anEvent } from './event-store.contract-support.js'
import type { EventToAppend } from './event-store.js'
import { createSqlEventStore } from './sql-event-store.js'

/**
 * The adapter's append, statement for statement, on a connection of its own and left uncommitted:
 * what an API instance in the middle of a slow append looks like to everyone else.
 */
const holdOpenAppend =
  (url: string) =>
  async (stream: string, event: EventToAppend): Promise<HeldAppend> => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query('begin')
      await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [stream])
      const { rows } = await client.query<{ version: number }>(
        `insert into tessera_streams (stream_id, version) values ($1, 1)
         on conflict (stream_id) do update set version = tessera_streams.version + 1
         returning version, pg_notify('tessera_events', '')::text as notified`,
        [stream],
      )
      const version = rows[0]?.version ?? 1
      await client.query(
        `insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
         values ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
        [event.id, stream, version, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)],
      )
    } catch (error) {
      await client.end()
      throw error
    }
    const finish = async (statement: 'commit' | 'rollback') => {
      try {
        await client.query(statement)
      } finally {
        await client.end()
      }
    }
    return { commit: () => finish('commit'), rollback: () => finish('rollback') }
  }

describeEventStoreContract('SQL on PGlite', async () => {
  const db = await freshPglite()
  // As the server opens it: one backend, so no stream lock.
  return { db, store: createSqlEventStore(db.db, { singleBackend: true }) }
})

describeEventStoreContract('SQL on PostgreSQL', async () => {
  const db = await freshPostgres()
  const store = createSqlEventStore(db.db, { listenForCommits: db.listenForCommits })
  return {
    db,
    store,
    holdOpenAppend: holdOpenAppend(db.url),
    async openOtherProcess() {
      const other = await openDatabase({ kind: 'postgres', url: db.url, poolSize: 2 })
      const otherStore = createSqlEventStore(other.db)
      return {
        store: otherStore,
        async close() {
          await otherStore.close()
          await other.close()
        },
      }
    },
  }
})

describe('SQL on PostgreSQL: commit notifications', () => {
  test('a store hears its own commit once: directly, not again through the database', async () => {
    const db = await freshPostgres()
    const listen = db.listenForCommits
    if (!listen) throw new Error('PostgreSQL listens for commits')
    let heard = 0
    // Each notification the store's listening connection receives, in commit order, with how many
    // times it woke the store's subscribers.
    const received: { payload: string; woke: number }[] = []
    const store = createSqlEventStore(db.db, {
      listenForCommits: (onCommit) =>
        listen((payload) => {
          const heardBefore = heard
          onCommit(payload)
          received.push({ payload, woke: heard - heardBefore })
        }),
    })
    const other = await openDatabase({ kind: 'postgres', url: db.url, poolSize: 2 })
    const otherStore = createSqlEventStore(other.db)
    // The listening connection comes up in the background. A store of its own waits for it, so
    // that a warm-up notification arriving late is told apart from the two the test counts.
    const warmUpStore = createSqlEventStore(other.db)
    const unsubscribe = store.subscribe(() => {
      heard += 1
    })
    try {
      await vi.waitFor(
        async () => {
          await warmUpStore.appendToStream('warm-up', [anEvent()], { expectedVersion: 'any' })
          expect(received.length).toBeGreaterThan(0)
        },
        { timeout: 10_000, interval: 50 },
      )
      const warmUpId = received[0]?.payload
      const before = { heard, received: received.length }
      await store.appendToStream('own', [anEvent()], { expectedVersion: 'no_stream' })
      await otherStore.appendToStream('other', [anEvent()], { expectedVersion: 'no_stream' })
      const since = () => received.slice(before.received)
      const counted = () => since().filter((notice) => notice.payload !== warmUpId)
      // Both notifications have come back, ours first (commit order).
      await vi.waitFor(() => expect(counted()).toHaveLength(2), { timeout: 10_000 })
      const [own, foreign] = counted()
      expect(own?.payload).not.toBe(foreign?.payload)
      expect(own?.woke).toBe(0)
      expect(foreign?.woke).toBe(1)
      // Every other wake-up came from a notification, but for one: the append's own, directly.
      const wokenByNotifications = since().reduce((sum, notice) => sum + notice.woke, 0)
      expect(heard - before.heard - wokenByNotifications).toBe(1)
    } finally {
      unsubscribe()
      await warmUpStore.close()
      await otherStore.close()
      await other.close()
      await store.close()
    }
  })
})

describe('SQL: appends to several streams', () => {
  test('are one transaction: a failing later part leaves no earlier part written', async () => {
    const db = await freshPglite()
    const store = createSqlEventStore(db.db, { singleBackend: true })
    try {
      await store.appendToStream('session-1', [anEvent()], { expectedVersion: 'no_stream' })
      const stale = store.appendToStreams([
        { stream: 'user-1', events: [anEvent()], options: { expectedVersion: 'no_stream' } },
        { stream: 'session-1', events: [anEvent()], options: { expectedVersion: 'no_stream' } },
      ])
      await expect(stale).rejects.toThrow(/session-1/)
      expect(await store.readStream('user-1')).toEqual([])

      const results = await store.appendToStreams([
        { stream: 'user-1', events: [anEvent()], options: { expectedVersion: 'no_stream' } },
        { stream: 'session-2', events: [anEvent()], options: { expectedVersion: 'no_stream' } },
      ])
      // One transaction: the projector finds both parts in one read, as one batch.
      expect(new Set(results.map(({ position }) => position.tx)).size).toBe(1)
    } finally {
      await store.close()
    }
  })

  test('are one statement: the parts keep their order in the log, and a refused claim of a later part writes nothing', async () => {
    const db = await freshPglite()
    const store = createSqlEventStore(db.db, { singleBackend: true })
    const claim = (value: string, owner: string) => ({ op: 'claim' as const, scope: 'email', value, owner })
    try {
      await store.appendToStream('user-0', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [claim('taken@example.com', 'user-0')],
      })
      const refused = store.appendToStreams([
        {
          stream: 'user-1',
          events: [anEvent()],
          options: { expectedVersion: 'no_stream', uniqueClaims: [claim('free@example.com', 'user-1')] },
        },
        {
          stream: 'user-2',
          events: [anEvent()],
          options: { expectedVersion: 'no_stream', uniqueClaims: [claim('taken@example.com', 'user-2')] },
        },
      ])
      await expect(refused).rejects.toMatchObject({
        name: 'UniqueClaimConflictError',
        value: 'taken@example.com',
      })
      expect(await store.readStream('user-1')).toEqual([])
      expect(await store.claimOwner('email', 'free@example.com')).toBeNull()

      const first = [anEvent(), anEvent(), anEvent()]
      const second = [anEvent(), anEvent()]
      await store.appendToStreams([
        { stream: 'b-stream', events: first, options: { expectedVersion: 'no_stream' } },
        { stream: 'a-stream', events: second, options: { expectedVersion: 'no_stream' } },
      ])
      const log = await store.readAll({ tx: 0n, seq: 0n }, 100)
      expect(log.slice(-5).map(({ id, streamId, streamVersion }) => [id, streamId, streamVersion])).toEqual([
        ...first.map(({ id }, index) => [id, 'b-stream', index + 1]),
        ...second.map(({ id }, index) => [id, 'a-stream', index + 1]),
      ])
      await expect(
        store.appendToStreams([
          { stream: 'c-stream', events: [anEvent()], options: { expectedVersion: 'any' } },
          { stream: 'c-stream', events: [anEvent()], options: { expectedVersion: 'any' } },
        ]),
      ).rejects.toThrow(/names a stream twice/)
    } finally {
      await store.close()
    }
  })

  test('a release and a take of one value in one append apply in their order', async () => {
    const db = await freshPglite()
    const store = createSqlEventStore(db.db, { singleBackend: true })
    const email = (op: 'claim' | 'release', value: string) => ({ op, scope: 'email', value, owner: 'user-1' })
    try {
      await store.appendToStream('user-1', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [email('claim', 'a@example.com')],
      })
      // Away and back in one append: the value ends up held, as it was.
      await store.appendToStream('user-1', [anEvent(), anEvent()], {
        expectedVersion: 1,
        uniqueClaims: [
          email('release', 'a@example.com'),
          email('claim', 'b@example.com'),
          email('release', 'b@example.com'),
          email('claim', 'a@example.com'),
        ],
      })
      expect(await store.claimOwner('email', 'a@example.com')).toBe('user-1')
      expect(await store.claimOwner('email', 'b@example.com')).toBeNull()
    } finally {
      await store.close()
    }
  })

  test('on PostgreSQL, two appends naming the same streams in opposite orders never deadlock', async () => {
    const db = await freshPostgres()
    const store = createSqlEventStore(db.db)
    const part = (stream: string) => ({
      stream,
      events: [anEvent()],
      options: { expectedVersion: 'any' as const },
    })
    try {
      // Were each stream locked as its own part comes, one of a crosswise pair would wait for the
      // other's second lock while holding its first: PostgreSQL would abort it as a deadlock.
      for (let round = 0; round < 20; round += 1) {
        const results = await Promise.allSettled([
          store.appendToStreams([part('a'), part('b')]),
          store.appendToStreams([part('b'), part('a')]),
        ])
        expect(results.map(({ status }) => status)).toEqual(['fulfilled', 'fulfilled'])
      }
      expect(await store.readStream('a')).toHaveLength(40)
    } finally {
      await store.close()
    }
  })
})

describe('SQL: stream reads', () => {
  test('asked in one turn share one statement; each answers its own stream from its version, as fresh as when asked', async () => {
    const db = await freshPglite()
    let statements = 0
    // Counted as they come back: a statement sent as its text (CompiledQuery) is never transformed.
    const counted = db.db.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        statements += 1
        return result
      },
    })
    const store = createSqlEventStore(counted, { singleBackend: true })
    try {
      const [a1, a2, b1] = [anEvent(), anEvent(), anEvent()]
      await store.appendToStream('a', [a1, a2], { expectedVersion: 'no_stream' })
      await store.appendToStream('b', [b1], { expectedVersion: 'no_stream' })
      statements = 0
      const [wholeA, tailA, wholeB, none] = await Promise.all([
        store.readStream('a'),
        store.readStream('a', { afterVersion: 1 }),
        store.readStream('b'),
        store.readStream('c'),
      ])
      expect(statements).toBe(1)
      expect(wholeA.map((event) => [event.id, event.streamVersion])).toEqual([
        [a1.id, 1],
        [a2.id, 2],
      ])
      expect(tailA.map((event) => event.id)).toEqual([a2.id])
      expect(wholeB.map((event) => event.id)).toEqual([b1.id])
      expect(none).toEqual([])
      // A read asked after an append sees it: nothing is served from an earlier read.
      const b2 = anEvent()
      await store.appendToStream('b', [b2], { expectedVersion: 1 })
      expect((await store.readStream('b')).map((event) => event.id)).toEqual([b1.id, b2.id])
    } finally {
      await store.close()
      await db.close()
    }
  })
})
