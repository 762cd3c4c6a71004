/// The log as the endpoint workers read it: workers that ask for the same page at the same time
/// (several endpoints woken by one commit, or replaying from the same point) share one query and
/// one opening of its sealed fields. Only reads in flight are shared, never a page already
/// answered: a later read sees later commits, and a page opened before an erasure is not handed
/// out after it.

import type { EventStore, RecordedEvent } from '../../../infra/event-store/event-store.js'

export const sharingReads = (store: EventStore): EventStore => {
  const inFlight = new Map<string, Promise<RecordedEvent[]>>()
  return {
    ...store,
    readAll(after, limit) {
      const key = `${after.tx}:${after.seq}:${limit}`
      const pending = inFlight.get(key)
      if (pending) return pending
      const read = store.readAll(after, limit).finally(() => inFlight.delete(key))
      inFlight.set(key, read)
      return read
    },
  }
}
