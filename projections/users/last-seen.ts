/// When each person was last seen: the latest session they started (a sign-in of any kind), for the
/// operator directory (shown, and sorted by). Taken from the log's `session.started` by the users
/// projection, so get-session's path writes nothing more; a session opened by an operator
/// impersonating the person is not the person being seen.
///
/// Kept in a narrow table of its own, `user_last_seen`, not on the `users` row: every sign-in
/// moved it, and on `users` each move wrote a whole new row version into all of that table's
/// indexes (the directory's trigram ones among them), the costliest statement of a sign-in
/// (issue 33: 3-4 ms and ~240 buffers, against ~0.1 ms and 11 buffers here).

import { type Kysely, sql } from 'kysely'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Projection } from '../projection.js'
import { bound } from '../runner/bound-statements.js'

type Trx = Parameters<Projection['apply']>[0]

/**
 * Moves the person's last-seen time forward to `at` for a session event; other events pass. The
 * rows go through a VALUES list grouped by person so that the replay's batched path, which merges
 * the inserts of one shape into one list (runner/statement-merge.ts), sends one person twice as
 * one row, their latest: an upsert cannot touch a row twice in one statement.
 */
export const applyLastSeen = async (trx: Trx, recorded: RecordedEvent): Promise<void> => {
  const at = new Date(recorded.metadata.at)
  if (recorded.type === 'session.started') {
    const data = recorded.data as { userId?: string; impersonatedBy?: string }
    if (!data.userId || data.impersonatedBy) return
    await trx.executeQuery(bound`
      insert into user_last_seen (user_id, last_seen_at)
      select user_id, max(last_seen_at) from (values (${data.userId}::text, ${at}::timestamptz)) as seen (user_id, last_seen_at)
      group by user_id
      on conflict (user_id) do update set last_seen_at = excluded.last_seen_at
      where user_last_seen.last_seen_at < excluded.last_seen_at`)
  }
}

/** The person's deletion (and so their erasure) leaves no trace of when they were seen. */
export const removeLastSeen = (trx: Trx, userId: string) =>
  trx.deleteFrom('user_last_seen').where('user_id', '=', userId).execute()

/**
 * The table, its values taken from the `users` column, and that column and its index gone. The
 * order index is the directory's "recently seen first" (list-users.ts): NULLS LAST although the
 * column holds none, so that it serves that order, whose never-seen people come from `users`.
 */
export const userLastSeenTableMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('user_last_seen')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await sql`create index user_last_seen_order on user_last_seen (last_seen_at desc nulls last, user_id)`.execute(
      db,
    )
    await sql`
      insert into user_last_seen (user_id, last_seen_at)
      select id, last_seen_at from users where last_seen_at is not null`.execute(db)
    await sql`drop index users_last_seen`.execute(db)
    await db.schema.alterTable('users').dropColumn('last_seen_at').execute()
  },
}

/**
 * The column, an index for ordering by role, an index for the directory's "recently seen first" (never-seen people last), and
 * a first value from the sessions still alive; a replay computes it from the whole log.
 * (Landed: the column and its index have since moved to `user_last_seen`, above.)
 */
export const usersLastSeenMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('users').addColumn('last_seen_at', 'timestamptz').execute()
    await sql`create index users_last_seen on users (last_seen_at desc nulls last, id)`.execute(db)
    // The directory's order by role reads the role as shown (the default one for none): list-users.ts.
    await sql`create index users_role_order on users ((coalesce(role, 'user')), id)`.execute(db)
    await sql`
      update users set last_seen_at = seen.at
      from (select user_id, max(greatest(created_at, updated_at)) as at from sessions
            where impersonated_by is null group by user_id) as seen
      where users.id = seen.user_id`.execute(db)
  },
}
