/// An event store decorator that keeps personal data sealed at rest: on append it seals each
/// personal field (see personal-fields.ts) with the subject's data key and hashes unique-claim
/// values; on read it opens them. Callers keep passing and reading plain values. Once a subject's
/// key is destroyed, its personal fields read as null and the event's metadata says `erased`.
/// What this process appended is read back without decrypting it again (appended-plaintext.ts).

import {
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type LogEntry,
  passedOver,
  type RecordedEvent,
  type StreamAppend,
  type UniqueClaim,
  UniqueClaimConflictError,
} from '../event-store.js'
import type { KeyedStreamReader } from '../sql-event-store.js'
import {
  type AppendedPlaintext,
  type AppendedPlaintextOptions,
  type CommittedPart,
  createAppendedPlaintext,
  type SealedAppended,
} from './appended-plaintext.js'
import { erasedSubjects } from './erasure.js'
import { openEvent, sealKeepingPlain, subjectToSeal, withoutPersonalMetadata } from './event-cipher.js'
import { hashClaims, hashClaimValue } from './hashed-claims.js'
import type { Keyring, ReadKeyRows } from './keyring.js'

export type EncryptionOptions = {
  /** The plaintexts held of what this process appended: their bounds, or the holder itself (tests). */
  appended?: AppendedPlaintext | AppendedPlaintextOptions
}

/** A full read opens every type's metadata. */
const everyType = () => true

export const withPersonalDataEncryption = (
  inner: EventStore & Partial<KeyedStreamReader>,
  keyring: Keyring,
  options: EncryptionOptions = {},
): EventStore => {
  const appended =
    options.appended && 'plainOf' in options.appended
      ? options.appended
      : createAppendedPlaintext(options.appended)

  /** Drops a cached key and the plaintexts held of each subject these events erase. */
  const forgetErased = (events: Parameters<typeof erasedSubjects>[0]) => {
    for (const subject of erasedSubjects(events)) {
      keyring.forget(subject)
      appended.forget(subject)
    }
  }

  /** The events sealed, and what each sealed event was sealed from (null: nothing to seal). */
  const seal = async (events: readonly EventToAppend[]) => {
    const sealed: EventToAppend[] = []
    const kept: (SealedAppended | null)[] = []
    for (const event of events) {
      const subject = subjectToSeal(event)
      if (subject === null) {
        sealed.push(event)
        kept.push(null)
        continue
      }
      const key = await keyring.keyFor(subject)
      const { sealed: one, plain } = sealKeepingPlain(event, key)
      sealed.push(one)
      kept.push({ id: event.id, type: event.type, subject, key, plain })
    }
    return { sealed, kept }
  }

  /**
   * `metadataOf`: the types whose metadata's personal fields are opened; the others' are given null,
   * never decrypted, yet every event's key is looked up as for a full read, so an erased subject's
   * events still say `erased`. False: no metadata is opened, and an event whose data holds nothing
   * sealed is not keyed at all (a decider's fold). `read`: key rows read with the events, so their
   * subjects' keys are not read again.
   */
  const open = async (
    events: RecordedEvent[],
    metadataOf: ((type: string) => boolean) | false = everyType,
    read?: ReadKeyRows,
  ): Promise<RecordedEvent[]> => {
    const opensMetadata = (event: RecordedEvent) => metadataOf !== false && metadataOf(event.type)
    const unsealed = (event: RecordedEvent) => (opensMetadata(event) ? event : withoutPersonalMetadata(event))
    const subjects = events.map((event) => subjectToSeal(event, metadataOf !== false))
    const wanted = subjects.filter((subject): subject is string => subject !== null)
    if (wanted.length === 0) return metadataOf === everyType ? events : events.map(unsealed)
    // Another instance erased these subjects: stop trusting a cached key before the cache expires.
    forgetErased(events)
    // One lookup for the whole batch: a replay reads hundreds of events per call.
    const keys = await keyring.existingKeys(wanted, read)
    // Erased outside an append (an operator's repair): nothing of theirs is reused either. Once per
    // subject, not per event: forgetting walks everything held.
    for (const subject of new Set(wanted)) if (!keys.has(subject)) appended.forget(subject)
    return events.map((event, index) => {
      const subject = subjects[index]
      if (subject == null) return unsealed(event)
      const key = keys.get(subject)
      const withMetadata = opensMetadata(event)
      return key
        ? openEvent(event, key, withMetadata, appended.plainOf(event, key))
        : openEvent(event, null, withMetadata)
    })
  }

  /** Appends the parts sealed, their claims hashed; a conflict names the value the caller passed. */
  const appendSealed = async (
    parts: readonly StreamAppend[],
    appendAll: (sealed: StreamAppend[]) => Promise<AppendResult[]>,
  ): Promise<AppendResult[]> => {
    const plain = parts.flatMap((part) => part.options.uniqueClaims ?? [])
    const claimKey = plain.length === 0 ? null : await keyring.claimKey()
    const hashed: UniqueClaim[] = []
    const sealed: StreamAppend[] = []
    const kept: (SealedAppended | null)[][] = []
    for (const { stream, events, options } of parts) {
      const claims = claimKey === null ? [] : hashClaims(claimKey, options.uniqueClaims ?? [])
      hashed.push(...claims)
      const part = await seal(events)
      kept.push(part.kept)
      sealed.push({ stream, events: part.sealed, options: { ...options, uniqueClaims: claims } })
    }
    try {
      const results = await appendAll(sealed)
      appended.hold(committedParts(parts, kept, results))
      return results
    } catch (error) {
      throw error instanceof UniqueClaimConflictError ? withPlainValue(error, plain, hashed) : error
    } finally {
      // The erasure committed (or not) in the append's transaction (erasure.ts); either way no
      // key read before it may stay cached, nor any plaintext of its subjects held.
      for (const part of parts) forgetErased(part.events)
    }
  }

  return {
    appendToStream: (stream, events, options) =>
      appendSealed([{ stream, events, options }], async ([only]) => {
        const sealed = only as StreamAppend
        return [await inner.appendToStream(stream, sealed.events, sealed.options)]
      }).then(([result]) => result as AppendResult),

    appendToStreams: (appends) => appendSealed(appends, (sealed) => inner.appendToStreams(sealed)),

    async readStream(stream, options) {
      const withMetadata = options?.withoutPersonalMetadata === true ? false : everyType
      if (!inner.readStreamKeyed) return open(await inner.readStream(stream, options), withMetadata)
      // The keys its events need come in the same statement (the second step of a sign-in opens
      // its person's TOTP secret: one round trip, not two).
      const mark = keyring.mark()
      const { events, keys } = await inner.readStreamKeyed(stream, options)
      return open(events, withMetadata, { rows: keys, mark })
    },

    readAll: async (after, limit, options) =>
      open(await inner.readAll(after, limit), options?.personalMetadataOf ?? everyType),

    async readAllOpening(after, limit, wanted) {
      const events = await inner.readAll(after, limit)
      // An erasure passed over still ends the trust in a cached key (`open` sees only what it opens).
      forgetErased(events)
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
      appended.clear()
      await inner.close()
    },
  }
}

/** Each part's sealed events with where its append ended. */
const committedParts = (
  parts: readonly StreamAppend[],
  kept: readonly (readonly (SealedAppended | null)[])[],
  results: readonly AppendResult[],
): CommittedPart[] =>
  parts.flatMap(({ stream }, index) => {
    const result = results[index]
    const events = kept[index]
    return result && events
      ? [{ stream, events, nextVersion: result.nextVersion, position: result.position }]
      : []
  })

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
