/// Reading the log opening only some types (`readAllOpening`): what a log follower that acts on a
/// few types reads (the mail reactor). It must see `readAll`'s events, no more and no fewer, and the
/// ones it does not ask for must carry nothing of their data or metadata.

import { describe, expect, test } from 'vitest'
import { anEvent, type EventStoreFixture, idsOf, readAtLeast, sleep } from './event-store.contract-support.js'
import { isOpened, type LogEntry, type RecordedEvent, START } from './event-store.js'

const REGISTERED = 'user.registered'

const placeOf = (event: RecordedEvent): LogEntry => ({
  id: event.id,
  type: event.type,
  streamId: event.streamId,
  streamVersion: event.streamVersion,
  position: event.position,
  recordedAt: event.recordedAt,
})

export const describePassingOverContract = (fixture: () => EventStoreFixture): void => {
  describe('reading the log opening some types', () => {
    test("opens the types asked for as readAll has them, and gives the others' place in the log only", async () => {
      const { store } = fixture()
      const registered = anEvent({
        type: REGISTERED,
        data: { userId: 'u-1', email: 'ada@example.com' },
        metadata: { ...anEvent().metadata, actor: { type: 'user', userId: 'u-1' }, ip: '203.0.113.7' },
      })
      const verified = anEvent({
        type: 'user.email-verified',
        data: { userId: 'u-1' },
        metadata: { ...anEvent().metadata, userAgent: 'Mozilla/5.0 (X11)' },
      })
      await store.appendToStream('user-1', [registered, verified], { expectedVersion: 'no_stream' })
      await store.appendToStream('other', [anEvent(), anEvent()], { expectedVersion: 'no_stream' })
      const all = await readAtLeast(store, 4)

      const entries = await store.readAllOpening(START, 10, (type) => type === REGISTERED)
      expect(entries).toStrictEqual(all.map((event) => (event.type === REGISTERED ? event : placeOf(event))))
      expect(entries.map(isOpened)).toEqual(all.map((event) => event.type === REGISTERED))
      for (const entry of entries.filter((entry) => !isOpened(entry)))
        expect(Object.keys(entry).sort()).toEqual(
          ['id', 'position', 'recordedAt', 'streamId', 'streamVersion', 'type'].sort(),
        )

      expect(await store.readAllOpening(START, 10, () => true)).toStrictEqual(all)
      expect(await store.readAllOpening(all[0]?.position ?? START, 2, () => true)).toStrictEqual(
        all.slice(1, 3),
      )
      expect(await store.readAllOpening(all.at(-1)?.position ?? START, 10, () => false)).toEqual([])
    })

    test('holds back what readAll holds back: nothing past an append whose transaction is open', async (context) => {
      const { store, holdOpenAppend } = fixture()
      if (!holdOpenAppend) return context.skip()
      const before = anEvent()
      await store.appendToStream('before', [before], { expectedVersion: 'no_stream' })
      await readAtLeast(store, 1)
      const open = await holdOpenAppend('held', anEvent())
      try {
        await store.appendToStream('later', [anEvent()], { expectedVersion: 'no_stream' })
        await sleep(20)
        expect(idsOf(await store.readAllOpening(START, 10, () => false))).toEqual([before.id])
      } finally {
        await open.rollback()
      }
    })
  })
}
