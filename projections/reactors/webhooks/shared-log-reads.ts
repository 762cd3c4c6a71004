/// The log as the endpoint workers read it: one read of a page serves every worker that asks for it
/// until the read models next advance. One commit wakes every endpoint, but each reaches the log's
/// end when its own deliveries are done, milliseconds apart: sharing only the reads in flight left
/// most endpoints reading (and opening the sealed fields of) the same page on their own.
///
/// What keeps a shared page true:
/// - Events are immutable and a page is read up to the log's end as it was then. An endpoint handed
///   a page that stops short of later commits only reaches its end sooner; the commit's `advanced()`
///   wakes it and makes it read afresh.
/// - An erasure is a commit too: once the read models applied it, `advanced()` drops every page, so
///   no page opened before an erasure is handed out after the reactor heard of it.
/// - A page is kept at most KEEP_MS (the read models may stall; a later read sees what they missed).
///
/// The batch the read models just applied is the page after the checkpoint it follows (the projector
/// says which: `from`), read and opened once already: the workers at that checkpoint, every endpoint
/// that kept up, take it rather than read the log again (one statement and the opening of its sealed
/// fields per commit; issue 34). It was read after every commit it holds, an erasure among them, and
/// is handed out only until the next advance. A batch the projector cut short (before an event a
/// projection failed on) only makes the workers reach their end sooner, as any short page does.

import type { EventStore, GlobalPosition, RecordedEvent } from '../../../infra/event-store/event-store.js'

const KEEP_MS = 1000
const MAX_PAGES = 64

export type SharedReads = {
  store: EventStore
  /**
   * The read models applied `events`: pages read before are not handed out again; the events are the
   * page after `from` when it is given (the log's events after it begin with them).
   */
  advanced(events?: readonly RecordedEvent[], from?: GlobalPosition): void
}

const keyOf = (after: GlobalPosition) => `${after.tx}:${after.seq}`

export const sharingReads = (store: EventStore, now: () => number = () => performance.now()): SharedReads => {
  let generation = 0
  const pages = new Map<string, { read: Promise<RecordedEvent[]>; at: number }>()
  let applied: { key: string; events: RecordedEvent[]; at: number } | null = null
  const appliedAfter = (after: GlobalPosition, limit: number) => {
    if (applied === null || keyOf(after) !== applied.key || now() - applied.at > KEEP_MS) return null
    return applied.events.length > limit ? applied.events.slice(0, limit) : applied.events
  }
  const fresh = (key: string) => {
    const page = pages.get(key)
    if (page && now() - page.at <= KEEP_MS) return page.read
    pages.delete(key)
    return null
  }
  return {
    store: {
      ...store,
      readAll(after, limit) {
        const batch = appliedAfter(after, limit)
        if (batch) return Promise.resolve(batch)
        const key = `${keyOf(after)}:${limit}`
        const kept = fresh(key)
        if (kept) return kept
        if (pages.size >= MAX_PAGES) pages.clear()
        const started = generation
        const read = store.readAll(after, limit)
        pages.set(key, { read, at: now() })
        // A failed read is not kept; neither is one answered after the read models advanced.
        read.then(
          () => started !== generation && pages.get(key)?.read === read && pages.delete(key),
          () => pages.get(key)?.read === read && pages.delete(key),
        )
        return read
      },
    },
    advanced(events, from) {
      generation += 1
      pages.clear()
      applied =
        events && events.length > 0 && from ? { key: keyOf(from), events: [...events], at: now() } : null
    },
  }
}
