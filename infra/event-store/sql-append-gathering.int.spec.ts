import { expect, test } from 'vitest'
import { describeEachDatabase } from '../../tests/support/databases.js'
import type { OpenDatabase } from '../db/database.js'
import { anEvent, idsOf } from './event-store.contract-support.js'
import type { AppendOptions } from './event-store.js'
import { createSqlEventStore } from './sql-event-store.js'

const claim = (value: string, owner: string) => ({ op: 'claim' as const, scope: 'email', value, owner })

describeEachDatabase('SQL: appends asked together (group commit)', (fresh, kind) => {
  const withStore = async (body: (store: ReturnType<typeof createSqlEventStore>) => Promise<void>) => {
    const db: OpenDatabase = await fresh()
    const store = createSqlEventStore(db.db, { singleBackend: kind === 'pglite' })
    try {
      await body(store)
    } finally {
      await store.close()
      await db.close()
    }
  }
  const streams = ['s-1', 's-2', 's-3', 's-4', 's-5', 's-6']

  test('to distinct streams share transactions, each caller with its own version and position', () =>
    withStore(async (store) => {
      const events = streams.map(() => [anEvent(), anEvent()])
      const results = await Promise.all(
        streams.map((stream, i) =>
          store.appendToStream(stream, events[i] ?? [], { expectedVersion: 'no_stream' }),
        ),
      )
      // Alone, six appends are six transactions.
      expect(new Set(results.map(({ position }) => position.tx)).size).toBeLessThanOrEqual(2)
      for (const [i, stream] of streams.entries()) {
        const read = await store.readStream(stream)
        expect(idsOf(read)).toEqual(idsOf(events[i] ?? []))
        expect(results[i]?.nextVersion).toBe(2)
        expect(results[i]?.position).toEqual(read[1]?.position)
      }
    }))

  test('one at a wrong expected version is refused alone; the others are appended', () =>
    withStore(async (store) => {
      await store.appendToStream('s-3', [anEvent()], { expectedVersion: 'no_stream' })
      const settled = await Promise.allSettled(
        streams.map((stream) =>
          store.appendToStream(stream, [anEvent()], { expectedVersion: stream === 's-3' ? 5 : 'no_stream' }),
        ),
      )
      expect(settled.map(({ status }) => status)).toEqual(
        streams.map((s) => (s === 's-3' ? 'rejected' : 'fulfilled')),
      )
      expect(settled[2]).toMatchObject({ reason: { name: 'ConcurrencyError', stream: 's-3', actual: 1 } })
      for (const stream of streams) expect(await store.readStream(stream)).toHaveLength(1)
    }))

  test('one claiming a held value is refused alone; the others are appended with their claims', () =>
    withStore(async (store) => {
      await store.appendToStream('holder', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [claim('held@example.com', 'holder')],
      })
      const options = (stream: string): AppendOptions => ({
        expectedVersion: 'no_stream',
        uniqueClaims: [claim(stream === 's-4' ? 'held@example.com' : `${stream}@example.com`, stream)],
      })
      const settled = await Promise.allSettled(
        streams.map((stream) => store.appendToStream(stream, [anEvent()], options(stream))),
      )
      expect(settled.map(({ status }) => status)).toEqual(
        streams.map((s) => (s === 's-4' ? 'rejected' : 'fulfilled')),
      )
      expect(settled[3]).toMatchObject({
        reason: { name: 'UniqueClaimConflictError', value: 'held@example.com' },
      })
      expect(await store.readStream('s-4')).toEqual([])
      expect(await store.claimOwner('email', 'held@example.com')).toBe('holder')
      for (const stream of streams.filter((s) => s !== 's-4'))
        expect(await store.claimOwner('email', `${stream}@example.com`)).toBe(stream)
    }))

  test('to one stream, asked together, keep their order and their versions', () =>
    withStore(async (store) => {
      const events = [anEvent(), anEvent(), anEvent()]
      const results = await Promise.all([
        store.appendToStream('one', [events[0] ?? anEvent()], { expectedVersion: 'no_stream' }),
        store.appendToStream('other', [anEvent()], { expectedVersion: 'no_stream' }),
        store.appendToStream('one', [events[1] ?? anEvent()], { expectedVersion: 1 }),
        store.appendToStream('one', [events[2] ?? anEvent()], { expectedVersion: 2 }),
      ])
      expect(results.map(({ nextVersion }) => nextVersion)).toEqual([1, 1, 2, 3])
      expect(idsOf(await store.readStream('one'))).toEqual(idsOf(events))
    }))
})
