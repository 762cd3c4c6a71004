/// The folded states `handle` decides on, kept per stream in a bounded LRU in memory, so a command on
/// a long stream (an organization of 10,000 members is 10,000 events) reads and folds only what was
/// appended since the last command, not the whole history each time.
///
/// Never trusted without asking the store: every load reads the stream from the kept version on
/// (`readStream(stream, { afterVersion })`, one indexed range read), so an append made by another
/// process, or by a concurrent request of this one, is always folded in. The read starts AT the kept
/// version and the event found there must be the one folded last: a log that is not the one folded
/// (restored, imported, another database) is read whole again.
///
/// Why reusing a state is sound:
/// - `evolve` and `decide` never change the state they are given (they return new values; the
///   domain's deciders copy their maps and sets), so one kept state may be shared by concurrent
///   decisions. A state is kept only as folded from what the store returned, never from the events
///   a decision is about to append (an append may still fail).
/// - Upcasting happens in the store, on every read: kept states and tails are folded from events of
///   the same shapes. (A new version of the code starts with an empty cache.)
/// - Erasure. `evolve` sees `type` and `data` (the metadata's sealed ip and user agent never reach a
///   state), and may copy a declared personal field into the state (the user's address, an
///   invitation's). A state folded from events whose personal fields were opened remembers their
///   subjects, and is reused only while every one of them still opens (`stillReadable`, the keyring
///   that a whole read would ask too: an erasure here, or another process's once the keyring's short
///   cache lets go of the key); otherwise the stream is read whole again and the fields read as null,
///   as they would without the cache. A tail that holds an erasing event (`user.deleted`) is read
///   whole again too. Without `stillReadable`, such states are not kept at all.

import { declarationOf, subjectOf } from '../../domain/events.js'
import type { Decider } from '../../domain/shared/decider.js'
import type { EventStore, EventToAppend, RecordedEvent } from '../../infra/event-store/event-store.js'
import { erasesSubject } from '../../infra/event-store/personal-data/erasure.js'

type Fold<State> = Pick<Decider<unknown, never, State>, 'evolve' | 'initialState'>

/** A stream's state as folded up to `version` (0: the stream holds no events). */
export type Folded<State> = { state: State; version: number }

export type FoldedStatesOptions = {
  store: Pick<EventStore, 'readStream'>
  /** How many streams are kept; 0 keeps none. */
  maxStreams?: number
  /** How many events the kept states may have been folded from, together: a bound on their memory. */
  maxEvents?: number
  /** Whether the data keys of these subjects still open: none of them was erased since. */
  stillReadable?: (subjects: readonly string[]) => Promise<boolean>
}

export type FoldedStates = {
  /** The stream's state now: the kept one brought up to date, or the whole stream folded. */
  load<State>(fold: Fold<State>, stream: string): Promise<Folded<State>>
  /**
   * The kept state if it was folded up to exactly `version`, without asking the store; null
   * otherwise. Only for a decision whose append is pinned to that version (`expectedVersion`): a
   * stream that moved since makes the append fail, so the state is never decided on stale.
   */
  keptAt<State>(fold: Fold<State>, stream: string, version: number): Folded<State> | null
  /**
   * The kept state, whatever its version, without asking the store (null when none is kept, or
   * its personal fields no longer open): only for a decision whose append expects that version,
   * and that is taken again on the stream as read when it appends nothing.
   */
  keptUnread<State>(fold: Fold<State>, stream: string): Promise<Folded<State> | null>
  /**
   * Keeps the state `from` brought forward by events this process just appended at `from`'s
   * version (the append's expected version held, so the stream is now `from` and these), for
   * events whose data reads back as it was written (plain JSON).
   */
  keepAppended<State>(
    fold: Fold<State>,
    stream: string,
    from: Folded<State>,
    appended: readonly EventToAppend[],
  ): void
  /** How many streams are kept (for tests and metrics). */
  size(): number
}

export const DEFAULT_MAX_STREAMS = 2_000
export const DEFAULT_MAX_EVENTS = 500_000

type Entry = {
  /** The `evolve` and `initialState` it was folded with: another pair folds another state. */
  fold: { evolve: unknown; initialState: unknown }
  state: unknown
  version: number
  lastEventId: string
  /** Subjects whose personal fields were opened into `state`. */
  subjects: ReadonlySet<string>
}

/** Who the opened personal fields of these events belong to (erased ones read as null already). */
const personalSubjects = (events: readonly RecordedEvent[], into: Set<string>): Set<string> => {
  for (const event of events) {
    if (event.metadata.erased || (declarationOf(event.type)?.personal.length ?? 0) === 0) continue
    const subject = subjectOf(event)
    if (subject !== null) into.add(subject)
  }
  return into
}

// `evolve` never sees the metadata: its sealed ip and user agent are not opened for it (a decryption
// each, for every event read: on a refresh, four of the six its answer made).
const FOLD_ONLY = { withoutPersonalMetadata: true } as const

const sameFold = (entry: Entry, fold: Entry['fold']) =>
  entry.fold.evolve === fold.evolve && entry.fold.initialState === fold.initialState

export const createFoldedStates = ({
  store,
  maxStreams = DEFAULT_MAX_STREAMS,
  maxEvents = DEFAULT_MAX_EVENTS,
  stillReadable,
}: FoldedStatesOptions): FoldedStates => {
  // Map keeps insertion order: the first entry is the one used longest ago.
  const entries = new Map<string, Entry>()
  let events = 0

  const drop = (stream: string) => {
    const entry = entries.get(stream)
    if (!entry) return
    entries.delete(stream)
    events -= entry.version
  }

  const keep = (stream: string, entry: Entry) => {
    const current = entries.get(stream)
    // A concurrent load of this process already kept a later state.
    if (current && sameFold(current, entry.fold) && current.version > entry.version) return
    drop(stream)
    const unsafe = entry.subjects.size > 0 && stillReadable === undefined
    if (unsafe || entry.version === 0 || entry.version > maxEvents || maxStreams === 0) return
    entries.set(stream, entry)
    events += entry.version
    for (const [oldest] of entries) {
      if (entries.size <= maxStreams && events <= maxEvents) break
      drop(oldest)
    }
  }

  const folded = <State>(stream: string, entry: Entry): Folded<State> => {
    keep(stream, entry)
    return { state: entry.state as State, version: entry.version }
  }

  const whole = async <State>(fold: Fold<State>, stream: string): Promise<Folded<State>> => {
    const history = await store.readStream(stream, FOLD_ONLY)
    const state = history.reduce(
      fold.evolve as (state: State, event: RecordedEvent) => State,
      fold.initialState(),
    )
    const last = history.at(-1)
    if (!last) return { state, version: 0 }
    const subjects = personalSubjects(history, new Set())
    return folded<State>(stream, { fold, state, version: last.streamVersion, lastEventId: last.id, subjects })
  }

  /** The kept state with the events appended since; null when it cannot be trusted. */
  const caughtUp = async <State>(fold: Fold<State>, stream: string, entry: Entry) => {
    const [read, readable] = await Promise.all([
      store.readStream(stream, { ...FOLD_ONLY, afterVersion: entry.version - 1 }),
      entry.subjects.size === 0 || (stillReadable?.([...entry.subjects]) ?? false),
    ])
    if (!readable) return null
    // Filtered again: a store that wraps another and drops the option returns the whole stream.
    const [known, ...tail] = read.filter((event) => event.streamVersion >= entry.version)
    if (known?.id !== entry.lastEventId) return null
    if (tail.some((event, index) => event.streamVersion !== entry.version + 1 + index)) return null
    if (tail.some((event) => erasesSubject(event.type))) return null
    const last = tail.at(-1)
    if (!last) return folded<State>(stream, entry)
    const state = tail.reduce(
      fold.evolve as (state: State, event: RecordedEvent) => State,
      entry.state as State,
    )
    const subjects = personalSubjects(tail, new Set(entry.subjects))
    return folded<State>(stream, { fold, state, version: last.streamVersion, lastEventId: last.id, subjects })
  }

  return {
    async load(fold, stream) {
      const entry = entries.get(stream)
      if (entry && sameFold(entry, fold)) {
        const current = await caughtUp(fold, stream, entry)
        if (current) return current
        // Unless a concurrent load kept another one meanwhile.
        if (entries.get(stream) === entry) drop(stream)
      }
      return whole(fold, stream)
    },
    keptAt(fold, stream, version) {
      const entry = entries.get(stream)
      if (!entry || !sameFold(entry, fold) || entry.version !== version) return null
      return { state: entry.state as never, version }
    },
    async keptUnread(fold, stream) {
      const entry = entries.get(stream)
      if (!entry || !sameFold(entry, fold)) return null
      const readable = entry.subjects.size === 0 || ((await stillReadable?.([...entry.subjects])) ?? false)
      return readable ? { state: entry.state as never, version: entry.version } : null
    },
    keepAppended(fold, stream, from, appended) {
      const last = appended.at(-1)
      if (!last || appended.some((event) => erasesSubject(event.type))) return
      const before = from.version === 0 ? undefined : entries.get(stream)
      if (from.version > 0 && (!before || !sameFold(before, fold) || before.version !== from.version)) return
      const events = appended as unknown as RecordedEvent[]
      const state = events.reduce(
        fold.evolve as (state: unknown, event: RecordedEvent) => unknown,
        from.state,
      )
      const subjects = personalSubjects(events, new Set(before?.subjects))
      keep(stream, { fold, state, version: from.version + appended.length, lastEventId: last.id, subjects })
    },
    size: () => entries.size,
  }
}
