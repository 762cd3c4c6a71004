/// The plaintext of the personal fields of events this process just appended, held briefly so that
/// this process's readers of the log (the projector above all, which reads every event a moment
/// after its command appended it) take it instead of decrypting again what was sealed here a
/// moment ago: some three AES decryptions of each second-step answer.
///
/// Exactly what a decryption would give, or nothing:
/// - An event is taken only where the read one is the one appended: same id (unique in the log),
///   stream, version and type, at the append's position (the last event of a stream's part) or
///   before it (the others); anything else is decrypted as before. Events another process appended
///   are never here, so they are read as today.
/// - Only with the same data key it was sealed with, which the reader has just asked the keyring
///   for (as every read does): an erased subject has none, and its events read as erased.
/// - Each field is held as the JSON text that was sealed and parsed again for each reader, so no
///   two readers share an object, and each gets what `JSON.parse(decrypt(…))` would give.
/// - Crypto-shredding: an erasure forgets its subjects here as it does in the keyring's cache, and
///   nothing is held longer than the keyring caches a key (`maxAgeMs`) nor more than `maxEvents`.

import { comparePositions, type GlobalPosition, type RecordedEvent } from '../event-store.js'

/** The sealed fields' plaintexts, as JSON text, by field (`data.<path>` or `metadata.<field>`). */
export type PlainFields = ReadonlyMap<string, string>

/** One appended event whose personal fields were sealed, with what they were. */
export type SealedAppended = {
  id: string
  type: string
  subject: string
  key: Uint8Array
  plain: PlainFields
}

/** One stream's part of a committed append, and where it ended. */
export type CommittedPart = {
  stream: string
  /** The part's events, in order; null where an event had nothing to seal. */
  events: readonly (SealedAppended | null)[]
  nextVersion: number
  position: GlobalPosition
}

export type AppendedPlaintextOptions = {
  maxEvents?: number
  maxAgeMs?: number
  now?: () => number
}

export type AppendedPlaintext = {
  hold(parts: readonly CommittedPart[]): void
  /** The plaintexts of `event` if it is one held, sealed under `key`; undefined otherwise. */
  plainOf(event: RecordedEvent, key: Uint8Array): PlainFields | undefined
  /** Drops everything held of the subject (erased). */
  forget(subject: string): void
  clear(): void
  /** How many events are held, of `subject` only when given (for tests). */
  size(subject?: string): number
}

type Held = SealedAppended & {
  stream: string
  version: number
  /** The append's position: the event's own when `last`, else one after it. */
  position: GlobalPosition
  last: boolean
  until: number
}

export const DEFAULT_MAX_EVENTS = 5_000

export const createAppendedPlaintext = ({
  maxEvents = DEFAULT_MAX_EVENTS,
  maxAgeMs = 5_000,
  now = Date.now,
}: AppendedPlaintextOptions = {}): AppendedPlaintext => {
  // Map keeps insertion order: the first entry is the one held longest.
  const held = new Map<string, Held>()

  const dropOld = (at: number) => {
    for (const [id, entry] of held) {
      if (held.size <= maxEvents && entry.until > at) break
      held.delete(id)
    }
  }

  return {
    hold(parts) {
      if (maxEvents <= 0) return
      const at = now()
      for (const { stream, events, nextVersion, position } of parts) {
        const first = nextVersion - events.length + 1
        events.forEach((event, index) => {
          if (event === null) return
          const last = index === events.length - 1
          const entry = { ...event, stream, version: first + index, position, last, until: at + maxAgeMs }
          held.set(event.id, entry)
        })
      }
      dropOld(at)
    },

    plainOf(event, key) {
      const entry = held.get(event.id)
      if (!entry) return undefined
      if (entry.until <= now()) {
        held.delete(event.id)
        return undefined
      }
      const order = comparePositions(event.position, entry.position)
      const samePlace =
        event.streamId === entry.stream &&
        event.streamVersion === entry.version &&
        event.type === entry.type &&
        (entry.last ? order === 0 : order < 0)
      return samePlace && Buffer.compare(key, entry.key) === 0 ? entry.plain : undefined
    },

    forget(subject) {
      for (const [id, entry] of held) if (entry.subject === subject) held.delete(id)
    },

    clear: () => held.clear(),

    size(subject) {
      if (subject === undefined) return held.size
      let count = 0
      for (const entry of held.values()) if (entry.subject === subject) count += 1
      return count
    },
  }
}
