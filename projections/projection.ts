/// A projection maps events to read-model rows. It is applied by the projector inside the same
/// transaction as the checkpoint, so it must only use the transaction it is given.

import type { Transaction } from 'kysely'
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
  apply(trx: Transaction<Database>, event: RecordedEvent): Promise<void>
}
