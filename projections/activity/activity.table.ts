/// Read model: each person's account history, one row per event that says something to them.
/// Rows are ordered by the event's global position, which a replay reproduces exactly and which
/// only grows as events are projected, so a page cursor over it never skips or repeats a row.

import type { ColumnType, Kysely, Selectable } from 'kysely'
import { sql } from 'kysely'

/** What the owner may see about one entry: addresses and field names, never secrets. */
export type { ActivityDetails } from '../../domain/shared/event-declaration.js'

import type { ActivityDetails } from '../../domain/shared/event-declaration.js'

export type ActivityTable = {
  /** The event id. */
  id: string
  user_id: string
  /** The event type, or the name the history gives it (a sign-out is a kind of revocation). */
  type: string
  at: Date
  ip: string | null
  user_agent: string | null
  details: ColumnType<ActivityDetails, string, never>
  // int8 reads as text (pg) or bigint (PGlite): the repository converts; writes take text.
  position_tx: ColumnType<string | bigint, string, never>
  position_seq: ColumnType<string | bigint, string, never>
}

export type ActivityRow = Selectable<ActivityTable>

export const activityMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('activity')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('details', 'jsonb', (c) => c.notNull())
      .addColumn('position_tx', 'bigint', (c) => c.notNull())
      .addColumn('position_seq', 'bigint', (c) => c.notNull())
      .execute()
    // Serves the only query: one user's rows, newest first, from a cursor.
    await sql`create index activity_user_position on activity (user_id, position_tx desc, position_seq desc)`.execute(
      db,
    )
  },
}
