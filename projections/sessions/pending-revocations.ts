/// Revocations the asynchronous projector has not applied yet. Whatever ends a session (a
/// revocation, an expiry, the user's deletion) is written here INLINE, in the append's own
/// transaction, so session resolution refuses the session the moment the event commits, on every
/// instance, however far the projector lags or even when it is dead. The sessions projection
/// deletes a row when it applies the event that wrote it, so the table holds only the lag window.
///
/// A revocation is final, so these rows form a grow-only set until consumed: commit order does
/// not matter, applying one twice changes nothing, and a replay (which leaves this table alone)
/// ends with the same rows as the live system, those of events past its checkpoint.

import { type Generated, type Kysely, sql, type Transaction } from 'kysely'
import type { EventToAppend, RecordedEvent } from '../../infra/event-store/event-store.js'
import { deleteRows } from '../runner/bound-statements.js'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their tables
type AnyDb = Kysely<any>
// biome-ignore lint/suspicious/noExplicitAny: as above
type AnyTransaction = Transaction<any>

export type PendingRevocationsTable = {
  event_id: string
  /** Set when one session ends. */
  session_id: string | null
  /** Set when every session of a user ends (the user is deleted). */
  user_id: string | null
  recorded_at: Generated<Date>
}

/** What each revoking event type ends. Later: member removal joins here. */
const REVOKES: Record<string, 'session' | 'user'> = {
  'session.revoked': 'session',
  'session.expired': 'session',
  'user.deleted': 'user',
  // A ban ends every session of the user at once; no new one can start while it holds.
  'user.banned': 'user',
  // A directory deactivated the person (SCIM): every session ends at once.
  'scim.user-deactivated': 'user',
}

export const revokes = (type: string): 'session' | 'user' | undefined => REVOKES[type]

const revocationOf = (event: Pick<EventToAppend, 'id' | 'type' | 'data'>) => {
  const kind = revokes(event.type)
  if (!kind) return null
  // Ids are never personal data: they stay readable in the sealed events the store writes.
  const { sessionId, userId } = event.data as { sessionId?: unknown; userId?: unknown }
  const id = kind === 'session' ? sessionId : userId
  if (typeof id !== 'string') return null
  return {
    event_id: event.id,
    session_id: kind === 'session' ? id : null,
    user_id: kind === 'user' ? id : null,
  }
}

type Tables = { tessera_pending_revocations: PendingRevocationsTable }

/**
 * The event store's inline hook: runs inside the append's transaction, after its events are
 * inserted. Only ids are read, so it works on the sealed events as the SQL store sees them.
 */
export const recordRevocations = async (
  trx: AnyTransaction,
  events: readonly Pick<EventToAppend, 'id' | 'type' | 'data'>[],
): Promise<void> => {
  const rows = events.flatMap((event) => revocationOf(event) ?? [])
  if (rows.length === 0) return
  await (trx as unknown as Transaction<Tables>)
    .insertInto('tessera_pending_revocations')
    .values(rows)
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute()
}

/** Called by the sessions projection once its read model shows `event`: the row has served. */
export const consumeRevocation = async (
  trx: AnyTransaction,
  event: Pick<RecordedEvent, 'id' | 'type'>,
): Promise<void> => {
  if (!revokes(event.type)) return
  await deleteRows<Tables, 'tessera_pending_revocations'>(trx, 'tessera_pending_revocations', {
    event_id: event.id,
  })
}

/** A condition for queries over `sessions`: no committed revocation names the session or its user. */
export const notPendingRevocation = sql<boolean>`not exists (
  select 1 from tessera_pending_revocations r
  where r.session_id = sessions.id or r.user_id = sessions.user_id)`

export const countPendingRevocations = async (db: AnyDb): Promise<number> => {
  const row = await (db as unknown as Kysely<Tables>)
    .selectFrom('tessera_pending_revocations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

export const pendingRevocationsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tessera_pending_revocations')
      .addColumn('event_id', 'uuid', (c) => c.primaryKey())
      .addColumn('session_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute()
    await db.schema
      .createIndex('tessera_pending_revocations_session')
      .on('tessera_pending_revocations')
      .column('session_id')
      .execute()
    await db.schema
      .createIndex('tessera_pending_revocations_user')
      .on('tessera_pending_revocations')
      .column('user_id')
      .execute()
  },
}
