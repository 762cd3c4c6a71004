/// The global-order trap: a sequence number is taken when a row is inserted, not when its
/// transaction commits, so a reader that remembers its last position can see a later event commit
/// first and then skip the earlier one forever. These tests hold a writer's transaction open while
/// others commit, and check that a checkpointed reader never passes it.

import { randomInt } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
  anEvent,
  checkpointedReader,
  type EventStoreFixture,
  idsOf,
  readAtLeast,
  sleep,
  streamVersionsInOrder,
} from './event-store.contract-support.js'

const rethrowFirstFailure = (outcomes: PromiseSettledResult<unknown>[]): void => {
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason
}

export const describeGlobalOrderContract = (fixture: () => EventStoreFixture): void => {
  describe('global order', () => {
    test('a reader does not pass an append whose transaction is still open, and skips it if it rolls back', async (context) => {
      const { store, holdOpenAppend } = fixture()
      if (!holdOpenAppend) return context.skip()
      const before = anEvent()
      await store.appendToStream('before', [before], { expectedVersion: 'no_stream' })
      const reader = checkpointedReader(store, 100)

      const held = anEvent()
      const open = await holdOpenAppend('held', held)
      const later = [anEvent(), anEvent(), anEvent()]
      try {
        for (const [index, event] of later.entries())
          await store.appendToStream(`later-${index}`, [event], { expectedVersion: 'no_stream' })
        // The later appends did commit; the reader must still wait for the held one.
        expect(idsOf(await store.readStream('later-0'))).toEqual([later[0]?.id])
        // Events older than the held one are not held back.
        await reader.catchUp(1)
        await sleep(20)
        await reader.drain()
        expect(idsOf(reader.seen)).toEqual([before.id])
      } finally {
        await open.commit()
      }
      await reader.catchUp(5)
      expect(idsOf(reader.seen)).toEqual([before.id, held.id, ...idsOf(later)])
      expect(idsOf(await readAtLeast(store, 5))).toEqual(idsOf(reader.seen))

      const abandoned = await holdOpenAppend('abandoned', anEvent())
      const after = [anEvent(), anEvent()]
      try {
        for (const event of after) await store.appendToStream('after', [event], { expectedVersion: 'any' })
        await sleep(20)
        await reader.drain()
        expect(reader.seen).toHaveLength(5)
      } finally {
        await abandoned.rollback()
      }
      await reader.catchUp(7)
      expect(idsOf(reader.seen.slice(5))).toEqual(idsOf(after))
      expect(await store.readStream('abandoned')).toEqual([])
    })

    test('a tailing reader sees every committed event exactly once while writers race', async () => {
      const { store, holdOpenAppend } = fixture()
      const committed = new Set<string>()
      const rolledBack = new Set<string>()
      // Half the appends go through the store; the other half, when the adapter allows, hold their
      // transaction open for a random moment so that commits overtake one another.
      const appendOne = async (writer: number, round: number): Promise<void> => {
        const stream = `stream-${randomInt(5)}`
        const event = anEvent()
        if (!holdOpenAppend || (writer + round) % 2 === 0) {
          await store.appendToStream(stream, [event], { expectedVersion: 'any' })
          committed.add(event.id)
          return
        }
        const open = await holdOpenAppend(stream, event)
        await sleep(randomInt(12))
        if (randomInt(10) === 0) {
          await open.rollback()
          rolledBack.add(event.id)
        } else {
          await open.commit()
          committed.add(event.id)
        }
      }
      const reader = checkpointedReader(store, 7)
      let writing = true
      const writers = Promise.allSettled(
        Array.from({ length: 12 }, async (_, writer) => {
          for (let round = 0; round < 8; round += 1) {
            await sleep(randomInt(4))
            await appendOne(writer, round)
          }
        }),
      ).then((outcomes) => {
        writing = false
        rethrowFirstFailure(outcomes)
      })
      const tailing = async () => {
        for (;;) {
          const finished = !writing
          if ((await reader.poll()).length > 0) continue
          if (finished) return
          await sleep(1)
        }
      }
      // Both run to the end even when one fails, so nothing is left writing to a closed database.
      rethrowFirstFailure(await Promise.allSettled([writers, tailing()]))
      await reader.catchUp(committed.size)

      const seen = idsOf(reader.seen)
      expect(new Set(seen).size).toBe(seen.length)
      expect(new Set(seen)).toEqual(committed)
      expect(seen.filter((id) => rolledBack.has(id))).toEqual([])
      expect(seen).toEqual(idsOf(await readAtLeast(store, committed.size)))
      expect(streamVersionsInOrder(reader.seen)).toBe(true)
    })
  })
}
