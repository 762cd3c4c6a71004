/// When each person was last seen: the latest session they started (a sign-in of any kind), kept
/// on their `users` row for the operator directory (shown, and sorted by). Taken from the log's
/// `session.started` by the users projection, so get-session's path writes nothing more; a
/// session opened by an operator impersonating the person is not the person being seen.

import { type Kysely, sql } from 'kysely'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Projection } from '../projection.js'

type Trx = Parameters<Projection['apply']>[0]

/** Moves the person's last-seen time forward to `at` for a session event; other events pass. */
export const applyLastSeen = async (trx: Trx, recorded: RecordedEvent): Promise<void> => {
  const at = new Date(recorded.metadata.at)
  if (recorded.type === 'session.started') {
    const data = recorded.data as { userId?: string; impersonatedBy?: string }
    if (!data.userId || data.impersonatedBy) return
    await trx
      .updateTable('users')
      .set({ last_seen_at: at })
      .where('id', '=', data.userId)
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', at)]))
      .execute()
  }
}

/**
 * The column, an index for ordering by role, an index for the directory's "recently seen first" (never-seen people last), and
 * a first value from the sessions still alive; a replay computes it from the whole log.
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
