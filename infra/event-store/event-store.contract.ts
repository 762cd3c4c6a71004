/// The behaviour every event store adapter must have. An adapter's int spec calls
/// `describeEventStoreContract` with a factory that opens a fresh, empty store per test.

import { describe, expect, test, vi } from 'vitest'
import {
  anEvent,
  type EventStoreFactory,
  expectToHearOtherProcess,
  idsOf,
  readAtLeast,
  sleep,
  streamVersionsInOrder,
  useFixture,
} from './event-store.contract-support.js'
import { describeGlobalOrderContract } from './event-store.global-order.contract.js'
import {
  ConcurrencyError,
  comparePositions,
  type RecordedEvent,
  START,
  UniqueClaimConflictError,
} from './event-store.js'
import { describePassingOverContract } from './event-store.passing-over.contract.js'
import { describeStreamTailContract } from './event-store.stream-tail.contract.js'

export type { EventStoreFactory, EventStoreFixture, HeldAppend } from './event-store.contract-support.js'

const EMAIL = 'user.email'

const rejections = (results: PromiseSettledResult<unknown>[]): unknown[] =>
  results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))

export const describeEventStoreContract = (name: string, factory: EventStoreFactory): void => {
  describe(`${name} event store contract`, () => {
    const fixture = useFixture(factory)

    test('events read back exactly as appended, with their metadata, in stream order', async () => {
      const { store } = fixture()
      const registered = anEvent({
        type: 'user.registered',
        data: { userId: 'u-1', email: 'ada@example.com', nested: { list: [1, 'two', null], flag: true } },
        metadata: {
          actor: { type: 'user', userId: 'u-1' },
          ip: '203.0.113.7',
          userAgent: 'Mozilla/5.0 (X11)',
          correlationId: 'corr-1',
          causationId: 'cause-1',
          at: '2026-11-21T10:00:00.000Z',
        },
      })
      const verified = anEvent({ type: 'user.email-verified' })
      const appended = await store.appendToStream('user-1', [registered, verified], {
        expectedVersion: 'no_stream',
      })
      await store.appendToStream('user-2', [anEvent()], { expectedVersion: 'no_stream' })

      const read = await store.readStream('user-1')
      expect(read).toEqual([
        {
          ...registered,
          streamId: 'user-1',
          streamVersion: 1,
          position: expect.anything(),
          recordedAt: expect.any(Date),
        },
        {
          ...verified,
          streamId: 'user-1',
          streamVersion: 2,
          position: expect.anything(),
          recordedAt: expect.any(Date),
        },
      ])
      const [first, second] = read as [RecordedEvent, RecordedEvent]
      expect(appended.nextVersion).toBe(2)
      expect(comparePositions(appended.position, second.position)).toBe(0)
      expect(comparePositions(first.position, second.position)).toBeLessThan(0)
      expect(Math.abs(second.recordedAt.getTime() - Date.now())).toBeLessThan(60_000)

      const third = anEvent()
      expect((await store.appendToStream('user-1', [third], { expectedVersion: 2 })).nextVersion).toBe(3)
      expect((await store.readStream('user-1')).map((event) => [event.id, event.streamVersion])).toEqual([
        [registered.id, 1],
        [verified.id, 2],
        [third.id, 3],
      ])
      expect(await store.readStream('user-10')).toEqual([])
    })

    test('expected versions: no_stream, an exact version and any', async () => {
      const { store } = fixture()
      await store.appendToStream('s', [anEvent()], { expectedVersion: 'no_stream' })

      const again = store.appendToStream('s', [anEvent()], { expectedVersion: 'no_stream' })
      await expect(again).rejects.toBeInstanceOf(ConcurrencyError)
      await expect(again).rejects.toMatchObject({ stream: 's', expected: 'no_stream', actual: 1 })
      const missing = store.appendToStream('other', [anEvent()], { expectedVersion: 1 })
      await expect(missing).rejects.toMatchObject({ name: 'ConcurrencyError', actual: 'no_stream' })

      expect((await store.appendToStream('s', [anEvent()], { expectedVersion: 1 })).nextVersion).toBe(2)
      expect((await store.appendToStream('s', [anEvent()], { expectedVersion: 'any' })).nextVersion).toBe(3)
      expect((await store.appendToStream('new', [anEvent()], { expectedVersion: 'any' })).nextVersion).toBe(1)
      expect(await store.readStream('other')).toEqual([])
    })

    test('a stale expected version fails and writes nothing: no events, no version, no claim change', async () => {
      const { store } = fixture()
      const claim = { op: 'claim', scope: EMAIL, value: 'old@example.com', owner: 's' } as const
      await store.appendToStream('s', [anEvent()], { expectedVersion: 'no_stream', uniqueClaims: [claim] })
      await store.appendToStream('s', [anEvent()], { expectedVersion: 1 })
      const before = await readAtLeast(store, 2)

      const stale = store.appendToStream('s', [anEvent(), anEvent()], {
        expectedVersion: 1,
        uniqueClaims: [
          { ...claim, op: 'release' },
          { op: 'claim', scope: EMAIL, value: 'new@example.com', owner: 's' },
        ],
      })
      await expect(stale).rejects.toMatchObject({ name: 'ConcurrencyError', expected: 1, actual: 2 })

      expect(await readAtLeast(store, 2)).toEqual(before)
      expect(await store.claimOwner(EMAIL, 'old@example.com')).toBe('s')
      expect(await store.claimOwner(EMAIL, 'new@example.com')).toBeNull()
      // The stream version did not move either: 2 is still the one to expect.
      expect((await store.appendToStream('s', [anEvent()], { expectedVersion: 2 })).nextVersion).toBe(3)
    })

    test('of 50 concurrent appends expecting the same version exactly one wins', async () => {
      const { store } = fixture()
      await store.appendToStream('s', [anEvent()], { expectedVersion: 'no_stream' })
      const contenders = Array.from({ length: 50 }, () => anEvent())
      // Connection pools open lazily; warm one up so that the contenders really run side by side.
      await Promise.all(contenders.map(() => store.readStream('s')))

      const results = await Promise.allSettled(
        contenders.map((event) => store.appendToStream('s', [event], { expectedVersion: 1 })),
      )

      const winners = contenders.filter((_, index) => results[index]?.status === 'fulfilled')
      expect(winners).toHaveLength(1)
      for (const reason of rejections(results)) expect(reason).toBeInstanceOf(ConcurrencyError)
      const stream = await store.readStream('s')
      expect(stream.map((event) => event.streamVersion)).toEqual([1, 2])
      expect(stream[1]?.id).toBe(winners[0]?.id)
    })

    test('of 100 concurrent sign-ups claiming one value exactly one wins and the others write nothing', async () => {
      const { store } = fixture()
      const streams = Array.from({ length: 100 }, (_, index) => `user-${index}`)

      const results = await Promise.allSettled(
        streams.map((stream) =>
          store.appendToStream(stream, [anEvent()], {
            expectedVersion: 'no_stream',
            uniqueClaims: [{ op: 'claim', scope: EMAIL, value: 'same@example.com', owner: stream }],
          }),
        ),
      )

      const winners = streams.filter((_, index) => results[index]?.status === 'fulfilled')
      expect(winners).toHaveLength(1)
      const winner = winners[0] ?? ''
      for (const reason of rejections(results)) {
        expect(reason).toBeInstanceOf(UniqueClaimConflictError)
        expect(reason).toMatchObject({ scope: EMAIL, value: 'same@example.com' })
      }
      expect(await store.claimOwner(EMAIL, 'same@example.com')).toBe(winner)
      const everything = await readAtLeast(store, 1)
      expect(everything.map((event) => event.streamId)).toEqual([winner])
      const loser = streams.find((stream) => stream !== winner) ?? ''
      expect(await store.readStream(loser)).toEqual([])
      // Nothing of the loser's stream was left behind: it can still be created from scratch.
      await store.appendToStream(loser, [anEvent()], { expectedVersion: 'no_stream' })
    })

    test('claims: idempotent for their owner, exclusive, released only by their owner, scoped', async () => {
      const { store } = fixture()
      const claim = (op: 'claim' | 'release', owner: string, value = 'ada@example.com') => ({
        op,
        scope: EMAIL,
        value,
        owner,
      })
      await store.appendToStream('a', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [claim('claim', 'a')],
      })
      await store.appendToStream('a', [anEvent()], {
        expectedVersion: 1,
        uniqueClaims: [claim('claim', 'a')],
      })
      expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('a')

      const taken = store.appendToStream('b', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [claim('claim', 'b', 'bob@example.com'), claim('claim', 'b')],
      })
      await expect(taken).rejects.toBeInstanceOf(UniqueClaimConflictError)
      expect(await store.readStream('b')).toEqual([])
      expect(await store.claimOwner(EMAIL, 'bob@example.com')).toBeNull()

      await store.appendToStream('b', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [claim('release', 'b')],
      })
      expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('a')
      await store.appendToStream('c', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [{ op: 'claim', scope: 'user.username', value: 'ada@example.com', owner: 'c' }],
      })
      expect(await store.claimOwner('user.username', 'ada@example.com')).toBe('c')

      await store.appendToStream('a', [anEvent()], {
        expectedVersion: 2,
        uniqueClaims: [claim('release', 'a')],
      })
      expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBeNull()
      await store.appendToStream('b', [anEvent()], {
        expectedVersion: 1,
        uniqueClaims: [claim('claim', 'b')],
      })
      expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('b')
    })

    test('appendToStreams: each stream at its own version, in the order given, results in that order', async () => {
      const { store } = fixture()
      await store.appendToStream('user-1', [anEvent()], { expectedVersion: 'no_stream' })
      const [user, session] = [[anEvent()], [anEvent(), anEvent()]]
      const results = await store.appendToStreams([
        { stream: 'user-1', events: user, options: { expectedVersion: 1 } },
        {
          stream: 'session-1',
          events: session,
          options: {
            expectedVersion: 'no_stream',
            uniqueClaims: [{ op: 'claim', scope: EMAIL, value: 'ada@example.com', owner: 'session-1' }],
          },
        },
      ])
      expect(results.map(({ nextVersion }) => nextVersion)).toEqual([2, 2])
      expect(comparePositions(results[0]?.position ?? START, results[1]?.position ?? START)).toBe(-1)
      expect(idsOf(await store.readStream('session-1'))).toEqual(idsOf(session))
      expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('session-1')
      const all = await readAtLeast(store, 4)
      expect(idsOf(all).slice(1)).toEqual([...idsOf(user), ...idsOf(session)])
      expect(all.at(-1)?.position).toEqual(results[1]?.position)
    })

    test('appendToStreams: a failing first part writes nothing of any part', async () => {
      const { store } = fixture()
      await store.appendToStream('taken', [anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [{ op: 'claim', scope: EMAIL, value: 'ada@example.com', owner: 'taken' }],
      })
      const claiming = store.appendToStreams([
        {
          stream: 'user-2',
          events: [anEvent()],
          options: {
            expectedVersion: 'no_stream',
            uniqueClaims: [{ op: 'claim', scope: EMAIL, value: 'ada@example.com', owner: 'user-2' }],
          },
        },
        { stream: 'session-2', events: [anEvent()], options: { expectedVersion: 'no_stream' } },
      ])
      await expect(claiming).rejects.toBeInstanceOf(UniqueClaimConflictError)
      const stale = store.appendToStreams([
        { stream: 'taken', events: [anEvent()], options: { expectedVersion: 'no_stream' } },
        { stream: 'session-3', events: [anEvent()], options: { expectedVersion: 'no_stream' } },
      ])
      await expect(stale).rejects.toBeInstanceOf(ConcurrencyError)
      for (const stream of ['user-2', 'session-2', 'session-3'])
        expect(await store.readStream(stream)).toEqual([])
      expect(await store.claimOwner(EMAIL, 'ada@example.com')).toBe('taken')
    })

    test('readAll gives every event once, in one order that keeps each stream in version order', async () => {
      const { store } = fixture()
      // A batch long enough that its sequence numbers cross from one digit to two: order must be
      // numeric, not textual.
      const batch = Array.from({ length: 12 }, () => anEvent())
      await store.appendToStream('batch', batch, { expectedVersion: 'no_stream' })
      const appended = idsOf(batch)
      for (let round = 0; round < 4; round += 1) {
        for (const stream of ['a', 'b', 'c']) {
          const events = round % 2 === 0 ? [anEvent()] : [anEvent(), anEvent()]
          await store.appendToStream(stream, events, { expectedVersion: 'any' })
          appended.push(...idsOf(events))
        }
      }

      const all = await readAtLeast(store, appended.length)
      expect(new Set(idsOf(all))).toEqual(new Set(appended))
      expect(all).toHaveLength(appended.length)
      expect(streamVersionsInOrder(all)).toBe(true)
      for (let index = 1; index < all.length; index += 1) {
        expect(comparePositions(all[index - 1]?.position ?? START, all[index]?.position ?? START)).toBe(-1)
      }

      const paged = await readAtLeast(store, appended.length, 4)
      expect(idsOf(paged)).toEqual(idsOf(all))
      expect(await store.readAll(START, 5)).toEqual(all.slice(0, 5))
      expect(await store.readAll(all[6]?.position ?? START, 3)).toEqual(all.slice(7, 10))
      expect(await store.readAll(all.at(-1)?.position ?? START, 10)).toEqual([])
    })

    test('head: the last event of the log and what lies past a position, counted up to the limit', async () => {
      const { store } = fixture()
      expect(await store.head(START, 100)).toEqual({
        position: START,
        eventsAfter: 0,
        oldestAfterSeconds: 0,
        heldBack: 0,
      })
      const first = await store.appendToStream('user-1', [anEvent(), anEvent()], {
        expectedVersion: 'no_stream',
        uniqueClaims: [{ op: 'claim', scope: EMAIL, value: 'ada@example.com', owner: 'user-1' }],
      })
      // Ends with a release: on a store that keeps claims beside the log, those are not its end.
      const last = await store.appendToStream('user-1', [anEvent()], {
        expectedVersion: 2,
        uniqueClaims: [{ op: 'release', scope: EMAIL, value: 'ada@example.com', owner: 'user-1' }],
      })
      await readAtLeast(store, 3)

      const fromStart = await store.head(START, 100)
      expect(comparePositions(fromStart.position, last.position)).toBe(0)
      expect(fromStart).toMatchObject({ eventsAfter: 3, heldBack: 0 })
      expect(fromStart.oldestAfterSeconds).toBeGreaterThanOrEqual(0)
      expect(fromStart.oldestAfterSeconds).toBeLessThan(60)
      expect(await store.head(first.position, 100)).toMatchObject({ eventsAfter: 1 })
      expect((await store.head(START, 2)).eventsAfter).toBe(2)
      const caughtUp = await store.head(last.position, 100)
      expect(caughtUp).toMatchObject({ eventsAfter: 0, oldestAfterSeconds: 0, heldBack: 0 })
      expect(comparePositions(caughtUp.position, last.position)).toBe(0)
    })

    test('subscribers hear of appends once committed, from this process and others when the adapter can tell', async () => {
      const { store, openOtherProcess } = fixture()
      const seenByListener: Promise<RecordedEvent[]>[] = []
      const unsubscribe = store.subscribe(() => {
        seenByListener.push(store.readStream('s'))
      })
      const first = anEvent()
      await store.appendToStream('s', [first], { expectedVersion: 'no_stream' })
      await vi.waitFor(() => expect(seenByListener.length).toBeGreaterThan(0))
      // What the listener could read when it was called: the commit had happened.
      expect(idsOf(await (seenByListener[0] ?? Promise.resolve([])))).toEqual([first.id])

      unsubscribe()
      const heard = seenByListener.length
      await store.appendToStream('s', [anEvent()], { expectedVersion: 1 })
      await sleep(50)
      expect(seenByListener).toHaveLength(heard)
      await Promise.all(seenByListener)
      if (openOtherProcess) await expectToHearOtherProcess(store, openOtherProcess)
    })

    describeGlobalOrderContract(fixture)
    describeStreamTailContract(fixture)
    describePassingOverContract(fixture)
  })
}
