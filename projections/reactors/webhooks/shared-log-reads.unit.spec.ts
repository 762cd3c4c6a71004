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

describe('the endpoint workers read the log', () => {
  it('once for a page several of them ask for at the same time', async () => {
    const { store, reads } = slowStore()
    const shared = sharingReads(store)
    const pages = [shared.readAll(START, 500), shared.readAll(START, 500), shared.readAll(START, 500)]
    expect(reads).toHaveLength(1)
    reads[0]?.([])
    expect(await Promise.all(pages)).toEqual([[], [], []])
  })

  it('again once a read is answered (later commits), and apart for another page', async () => {
    const { store, reads } = slowStore()
    const shared = sharingReads(store)
    const first = shared.readAll(START, 500)
    const other = shared.readAll({ tx: 5n, seq: 1n }, 500)
    expect(reads).toHaveLength(2)
    reads[0]?.([])
    await first
    const again = shared.readAll(START, 500)
    expect(reads).toHaveLength(3)
    reads[1]?.([])
    reads[2]?.([])
    await Promise.all([other, again])
  })
})
