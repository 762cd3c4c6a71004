/// A projection maps events to read-model rows. It is applied by the projector inside the same
/// transaction as the checkpoint, so it must only use the transaction it is given.

import type { Transaction } from 'kysely'
import { knownEventTypes } from '../domain/events.js'
import type { RecordedEvent } from '../infra/event-store/event-store.js'
import type { Database } from './database.js'

export type Projection = {
  name: string
  /** Tables this projection owns; emptied by `tessera replay` before rebuilding. */
  tables: readonly (keyof Database & string)[]
  /**
   * Indexes of its tables that only readers use, never its own statements (sort orders, text
   * search): a full replay drops them and builds them once after the load (runner/deferred-indexes.ts).
   */
  readerIndexes?: readonly string[]
  /**
   * The event types `apply` acts on (`eventTypes` below): the projector calls it for no other, which
   * spares a replay an await per event for each projection that would pass it over. None: every event.
   */
  handles?: ReadonlySet<string>
  /**
   * The event types whose metadata's personal fields (`ip`, `userAgent`) `apply` reads: the projector
   * leaves them unopened, null, in any event no projection of its group reads them of, which spares
   * a replay a decryption each. None: every type it handles.
   */
  readsPersonalMetadata?: ReadonlySet<string>
  apply(trx: Transaction<Database>, event: RecordedEvent): Promise<void>
}

/** No type: for a projection that reads no event's `ip` or `userAgent` (`readsPersonalMetadata`). */
export const NO_EVENT_TYPES: ReadonlySet<string> = new Set()

/**
 * The known event types named: a family by its prefix ('passkey.' for every passkey event), or a type
 * by its full name. A name that matches nothing is a typo, thrown at load rather than left to skip.
 */
export const eventTypes = (...names: readonly string[]): ReadonlySet<string> => {
  const known = knownEventTypes()
  const matching = (name: string) =>
    known.filter((type) => (name.endsWith('.') ? type.startsWith(name) : type === name))
  for (const name of names) if (matching(name).length === 0) throw new Error(`no event type ${name}`)
  return new Set(names.flatMap(matching))
}
