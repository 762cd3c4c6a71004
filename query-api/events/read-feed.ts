/// Reading the public event feed: the catalogue's events after a position, in log order, filtered
/// by type and organization, at most `limit`. The cursor returned is the last position looked at
/// (matching or not), so the next read starts after it: a consumer that stores it never misses an
/// event and never sees one twice. With `wait`, an empty read waits for the next commit (long poll).

import {
  organizationOf,
  type PublicEvent,
  sourcesOf,
  toPublicEvent,
} from '../../domain/public-events/catalogue.js'
import { type EventStore, type GlobalPosition, isOpened } from '../../infra/event-store/event-store.js'

export type FeedQuery = {
  after: GlobalPosition
  /** Public types asked for; empty: all of them. */
  types: readonly string[]
  organizationId: string | null
  limit: number
  waitMs: number
}

export type FeedPage = { events: PublicEvent[]; position: GlobalPosition }

// How many log events one read looks at; a feed of rare types scans the log in pages of this size.
const SCAN_PAGE = 500
// A read stops scanning after this many events even if it found fewer than `limit`: the cursor moves
// on, and the next read continues, so one request never scans the whole log.
const SCAN_BUDGET = 20_000

const scan = async (store: EventStore, query: FeedQuery): Promise<FeedPage> => {
  const sources = query.types.length === 0 ? null : new Set(sourcesOf(query.types))
  const events: PublicEvent[] = []
  let position = query.after
  let scanned = 0
  // Events of types not asked for are passed over unopened: their sealed fields are not decrypted.
  const opens = sources === null ? () => true : (type: string) => sources.has(type)
  while (scanned < SCAN_BUDGET) {
    const page = await store.readAllOpening(position, SCAN_PAGE, opens)
    for (const event of page) {
      position = event.position
      scanned += 1
      if (!isOpened(event)) continue
      if (query.organizationId !== null && organizationOf(event) !== query.organizationId) continue
      const published = toPublicEvent(event)
      if (!published) continue
      events.push(published)
      if (events.length >= query.limit) return { events, position }
    }
    if (page.length < SCAN_PAGE) break
  }
  return { events, position }
}

/**
 * Commits seen since the last `next()`: subscribed before the first scan, so a commit between a
 * scan and the wait is not missed.
 */
const commitWatch = (store: EventStore) => {
  let seen = false
  let wakeUp: (() => void) | null = null
  const unsubscribe = store.subscribe(() => {
    seen = true
    wakeUp?.()
  })
  return {
    next: (ms: number) =>
      new Promise<void>((resolve) => {
        if (seen) return resolve()
        const timer = setTimeout(resolve, ms)
        wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      }).then(() => {
        seen = false
        wakeUp = null
      }),
    close: unsubscribe,
  }
}

export const readFeed = async (store: EventStore, query: FeedQuery, now: () => number): Promise<FeedPage> => {
  const deadline = now() + query.waitMs
  const watch = query.waitMs > 0 ? commitWatch(store) : null
  try {
    let page = await scan(store, query)
    while (watch && page.events.length === 0 && now() < deadline) {
      await watch.next(deadline - now())
      page = await scan(store, { ...query, after: page.position })
    }
    return page
  } finally {
    watch?.close()
  }
}
