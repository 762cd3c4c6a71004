/// An event store decorator that keeps personal data sealed at rest: on append it seals each
/// personal field (see personal-fields.ts) with the subject's data key and hashes unique-claim
/// values; on read it opens them. Callers keep passing and reading plain values. Once a subject's
/// key is destroyed, its personal fields read as null and the event's metadata says `erased`.

import {
  type EventStore,
  type EventToAppend,
  type LogEntry,
  passedOver,
  type RecordedEvent,
  type StreamAppend,
  type UniqueClaim,
  UniqueClaimConflictError,
} from '../event-store.js'
import { erasedSubjects } from './erasure.js'
import { openEvent, sealEvent, subjectToSeal, withoutPersonalMetadata } from './event-cipher.js'
import { hashClaims, hashClaimValue } from './hashed-claims.js'
import type { Keyring } from './keyring.js'

export const withPersonalDataEncryption = (inner: EventStore, keyring: Keyring): EventStore => {
  const seal = async (events: readonly EventToAppend[]): Promise<EventToAppend[]> => {
    const sealed: EventToAppend[] = []
    for (const event of events) {
      const subject = subjectToSeal(event)
      sealed.push(subject === null ? event : sealEvent(event, await keyring.keyFor(subject)))
    }
    return sealed
  }

  /** `withMetadata` false: the metadata's personal fields are given null, never decrypted. */
  const open = async (events: RecordedEvent[], withMetadata = true): Promise<RecordedEvent[]> => {
    const subjects = events.map((event) => subjectToSeal(event, withMetadata))
    const wanted = subjects.filter((subject): subject is string => subject !== null)
    if (wanted.length === 0) return withMetadata ? events : events.map(withoutPersonalMetadata)
    // Another instance erased these subjects: stop trusting a cached key before the cache expires.
    for (const subject of erasedSubjects(events)) keyring.forget(subject)
    // One lookup for the whole batch: a replay reads hundreds of events per call.
    const keys = await keyring.existingKeys(wanted)
    return events.map((event, index) => {
      const subject = subjects[index]
      if (subject == null) return withMetadata ? event : withoutPersonalMetadata(event)
      return openEvent(event, keys.get(subject) ?? null, withMetadata)
    })
  }

  /** Appends the parts sealed, their claims hashed; a conflict names the value the caller passed. */
  const appendSealed = async <Result>(
    parts: readonly StreamAppend[],
    appendAll: (sealed: StreamAppend[]) => Promise<Result>,
  ): Promise<Result> => {
    const plain = parts.flatMap((part) => part.options.uniqueClaims ?? [])
    const claimKey = plain.length === 0 ? null : await keyring.claimKey()
    const hashed: UniqueClaim[] = []
    const sealed: StreamAppend[] = []
    for (const { stream, events, options } of parts) {
      const claims = claimKey === null ? [] : hashClaims(claimKey, options.uniqueClaims ?? [])
      hashed.push(...claims)
      sealed.push({ stream, events: await seal(events), options: { ...options, uniqueClaims: claims } })
    }
    try {
      return await appendAll(sealed)
    } catch (error) {
      throw error instanceof UniqueClaimConflictError ? withPlainValue(error, plain, hashed) : error
    } finally {
      // The erasure committed (or not) in the append's transaction (erasure.ts); either way no
      // key read before it may stay cached.
      for (const part of parts) for (const subject of erasedSubjects(part.events)) keyring.forget(subject)
    }
  }

  return {
    appendToStream: (stream, events, options) =>
      appendSealed([{ stream, events, options }], ([only]) => {
        const sealed = only as StreamAppend
        return inner.appendToStream(stream, sealed.events, sealed.options)
      }),

    appendToStreams: (appends) => appendSealed(appends, (sealed) => inner.appendToStreams(sealed)),

    readStream: async (stream, options) =>
      open(await inner.readStream(stream, options), options?.withoutPersonalMetadata !== true),

    readAll: async (after, limit) => open(await inner.readAll(after, limit)),

    async readAllOpening(after, limit, wanted) {
      const events = await inner.readAll(after, limit)
      // An erasure passed over still ends the trust in a cached key (`open` sees only what it opens).
      for (const subject of erasedSubjects(events)) keyring.forget(subject)
      const opens = events.map((event) => wanted(event.type))
      const opened = await open(events.filter((_, index) => opens[index]))
      let next = 0
      return events.map((event, index): LogEntry => {
        if (!opens[index]) return passedOver(event)
        return opened[next++] as RecordedEvent
      })
    },

    head: (after, countLimit) => inner.head(after, countLimit),

    claimOwner: async (scope, value) =>
      inner.claimOwner(scope, hashClaimValue(await keyring.claimKey(), scope, value)),

    subscribe: (listener) => inner.subscribe(listener),

    async close() {
      keyring.clearCache()
      await inner.close()
    },
  }
}

/** The conflict as the caller knows it: with the value it passed, not the hash stored. */
const withPlainValue = (
  error: UniqueClaimConflictError,
  plain: readonly UniqueClaim[],
  hashed: readonly UniqueClaim[],
): UniqueClaimConflictError => {
  const index = hashed.findIndex((claim) => claim.scope === error.scope && claim.value === error.value)
  const original = plain[index]
  return original ? new UniqueClaimConflictError(original.scope, original.value) : error
}
