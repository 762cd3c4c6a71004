/// Reading a stream from a version (`readStream(stream, { afterVersion })`): what `handle` reads to
/// bring a folded state it kept up to date, so it must return exactly the events past that version,
/// whoever wrote them, in the same shape as a whole read.

import { describe, expect, test } from 'vitest'
import { anEvent, type EventStoreFixture, idsOf } from './event-store.contract-support.js'

export const describeStreamTailContract = (fixture: () => EventStoreFixture): void => {
  describe('reading a stream after a version', () => {
    test('returns the events past the version, as a whole read has them', async () => {
      const { store } = fixture()
      const events = [anEvent(), anEvent(), anEvent(), anEvent()]
      await store.appendToStream('s', events.slice(0, 2), { expectedVersion: 'no_stream' })
      await store.appendToStream('other', [anEvent()], { expectedVersion: 'no_stream' })
      await store.appendToStream('s', events.slice(2), { expectedVersion: 2 })

      const whole = await store.readStream('s')
      expect(await store.readStream('s', { afterVersion: 0 })).toEqual(whole)
      expect(await store.readStream('s', { afterVersion: 2 })).toEqual(whole.slice(2))
      expect((await store.readStream('s', { afterVersion: 3 })).map((e) => e.streamVersion)).toEqual([4])
      expect(await store.readStream('s', { afterVersion: 4 })).toEqual([])
      expect(await store.readStream('s', { afterVersion: 9 })).toEqual([])
      expect(await store.readStream('missing', { afterVersion: 1 })).toEqual([])
    })

    test('another process appending is seen by the next read from the version read before', async (context) => {
      const { store, openOtherProcess } = fixture()
      if (!openOtherProcess) return context.skip()
      const first = anEvent()
      await store.appendToStream('s', [first], { expectedVersion: 'no_stream' })
      const other = await openOtherProcess()
      try {
        const theirs = [anEvent(), anEvent()]
        await other.store.appendToStream('s', theirs, { expectedVersion: 1 })
        expect(idsOf(await store.readStream('s', { afterVersion: 1 }))).toEqual(idsOf(theirs))
      } finally {
        await other.close()
      }
    })
  })
}
