/// Forgetting a person: destroy their data key. Every personal field sealed under it, in every
/// event of the immutable log, is unreadable from then on; reads give null and `metadata.erased`.
///
/// The key is destroyed in the same transaction that appends the event erasing its subject (the
/// SQL store's inline hook, `eraseInline`): the deletion and the erasure commit together or not at
/// all, so no crash between two steps can leave a deleted user's data readable. A tombstone row
/// takes the key's place, so the subject never gets a fresh key. Other processes stop decrypting
/// when they read the erasing event or, at the latest, when their cached key expires (seconds).
/// The projections then see the subject's remaining events as erased, exactly as a replay would.

import { declarationOf } from '../../../domain/events.js'
import type { EventToAppend } from '../event-store.js'
import type { InlineProjection } from '../sql-event-store.js'
import { eraseSubjectsIn, type Keyring } from './keyring.js'
import { subjectOf } from './personal-fields.js'

type ErasableEvent = Pick<EventToAppend, 'type' | 'data' | 'metadata'>

/** Events whose declaration forgets their subject (`activity: 'forget'`, e.g. `user.deleted`). */
export const erasesSubject = (type: string): boolean => declarationOf(type)?.activity === 'forget'

/** The subjects these events erase: their own, and any keys they name in `alsoErases`. */
export const erasedSubjects = (events: readonly ErasableEvent[]): string[] => {
  const subjects: string[] = []
  for (const event of events) {
    if (!erasesSubject(event.type)) continue
    const subject = subjectOf(event as Parameters<typeof subjectOf>[0])
    if (subject !== null) subjects.push(subject)
    const { alsoErases } = event.data as { alsoErases?: unknown }
    if (Array.isArray(alsoErases))
      for (const other of alsoErases) if (typeof other === 'string') subjects.push(other)
  }
  return subjects
}

/** The inline hook: tombstones the subjects the appended events erase, in the append's transaction. */
export const eraseInline: InlineProjection = (trx, events) => eraseSubjectsIn(trx, erasedSubjects(events))

/** Erases a subject outside an append (idempotent): an operator's repair, or a belt to the braces. */
export const eraseSubject = (keyring: Keyring, subject: string): Promise<void> => keyring.destroy(subject)

/**
 * Whether every one of these subjects still has its data key: nothing sealed under them was erased.
 * Asks the keyring as a read would (its short cache, then the table), so a state folded from opened
 * personal fields is trusted exactly as long as a fresh read would still open them.
 */
export const stillReadable =
  (keyring: Pick<Keyring, 'existingKeys'>) =>
  async (subjects: readonly string[]): Promise<boolean> => {
    const unique = new Set(subjects)
    return (await keyring.existingKeys(unique)).size === unique.size
  }
