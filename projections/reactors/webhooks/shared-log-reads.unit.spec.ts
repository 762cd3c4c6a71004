import { describe, expect, it } from 'vitest'
import type { EventStore, RecordedEvent } from '../../../infra/event-store/event-store.js'
import { START } from '../../../infra/event-store/event-store.js'
import { sharingReads } from './shared-log-reads.js'

/** A store whose reads wait until `answer` is called, counting them. */
const slowStore = () => {
  const reads: Array<(events: RecordedEvent[]) => void> = []
  const store = {
    readAll: () => new Promise<RecordedEvent[]>((resolve) => reads.push(resolve)),
  } as unknown as EventStore
  return { store, reads }
}

/** A store answering at once with what `log` holds now (an erasure changes what it opens). */
const liveStore = (log: { events: RecordedEvent[] }) => {
  let reads = 0
  const store = {
    readAll: async () => {
      reads += 1
      return log.events.map((event) => ({ ...event }))
    },
  } as unknown as EventStore
  return { store, reads: () => reads }
}

const created = (email: string | null) =>
  ({
    id: 'e1',
    type: 'user.created',
    data: { email },
    position: { tx: 1n, seq: 1n },
  }) as unknown as RecordedEvent

describe('the endpoint workers read the log', () => {
  it('once for a page several of them ask for at the same time', async () => {
    const { store, reads } = slowStore()
    const shared = sharingReads(store).store
    const pages = [shared.readAll(START, 500), shared.readAll(START, 500), shared.readAll(START, 500)]
    expect(reads).toHaveLength(1)
    reads[0]?.([])
    expect(await Promise.all(pages)).toEqual([[], [], []])
  })

  it('once for a page asked for again before the read models advance, apart for another page', async () => {
    const log = { events: [created('ada@example.test')] }
    const { store, reads } = liveStore(log)
    const shared = sharingReads(store).store
    await shared.readAll(START, 500)
    expect(await shared.readAll(START, 500)).toEqual(log.events)
    expect(reads()).toBe(1)
    await shared.readAll({ tx: 5n, seq: 1n }, 500)
    expect(reads()).toBe(2)
  })

  it('afresh once the read models advanced: a page opened before an erasure is not handed out', async () => {
    const log = { events: [created('ada@example.test')] }
    const { store, reads } = liveStore(log)
    const shared = sharingReads(store)
    await shared.store.readAll(START, 500)
    log.events = [created(null)] // the person erased: the log now opens without the address
    shared.advanced()
    const page = await shared.store.readAll(START, 500)
    expect(reads()).toBe(2)
    expect(page[0]?.data).toEqual({ email: null })
  })

  it('afresh when the read models advanced while the page was read', async () => {
    const { store, reads } = slowStore()
    const shared = sharingReads(store)
    const first = shared.store.readAll(START, 500)
    shared.advanced()
    reads[0]?.([])
    await first
    const again = shared.store.readAll(START, 500)
    expect(reads).toHaveLength(2)
    reads[1]?.([])
    await again
  })

  it('afresh once a page is a second old, though the read models did not advance', async () => {
    let clock = 0
    const log = { events: [created('ada@example.test')] }
    const { store, reads } = liveStore(log)
    const shared = sharingReads(store, () => clock).store
    await shared.readAll(START, 500)
    clock = 999
    await shared.readAll(START, 500)
    expect(reads()).toBe(1)
    clock = 1001
    await shared.readAll(START, 500)
    expect(reads()).toBe(2)
  })

  it('not at all for the batch the read models applied, asked for after the checkpoint it follows', async () => {
    const clock = 0
    const log = { events: [created('ada@example.test')] }
    const { store, reads } = liveStore(log)
    const shared = sharingReads(store, () => clock)
    const applied = [created('grace@example.test')]
    shared.advanced(applied, START)
    expect(await shared.store.readAll(START, 500)).toEqual(applied)
    expect(await shared.store.readAll(START, 500)).toEqual(applied)
    expect(reads()).toBe(0)
    // At most a page of it; elsewhere in the log, the log itself.
    expect(await shared.store.readAll(START, 0)).toEqual([])
    await shared.store.readAll({ tx: 5n, seq: 1n }, 500)
    expect(reads()).toBe(1)
  })

  it('the log again once the applied batch is a second old, or others were applied since', async () => {
    let clock = 0
    const log = { events: [created('ada@example.test')] }
    const { store, reads } = liveStore(log)
    const shared = sharingReads(store, () => clock)
    shared.advanced([created('grace@example.test')], START)
    clock = 1001
    expect(await shared.store.readAll(START, 500)).toEqual(log.events)
    shared.advanced([created('grace@example.test')], START)
    shared.advanced([created('grace@example.test')]) // where these follow is not known
    expect(await shared.store.readAll(START, 500)).toEqual(log.events)
    expect(reads()).toBe(2)
  })

  it('afresh after a read that failed', async () => {
    let fail = true
    const store = {
      readAll: async () => {
        if (fail) throw new Error('connection lost')
        return []
      },
    } as unknown as EventStore
    const shared = sharingReads(store).store
    await expect(shared.readAll(START, 500)).rejects.toThrow('connection lost')
    fail = false
    expect(await shared.readAll(START, 500)).toEqual([])
  })
})
