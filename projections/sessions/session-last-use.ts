/// When each session was last used: an OPERATIONAL table, not a read model and not in the log.
/// "Last active" would otherwise need an event per request (a log that grows with every page view,
/// and a projector pass for each); instead session resolution records a session's use here at most
/// once every few minutes (http/sessions/session-usage.ts), and list-sessions shows the later
/// of this and the session's own `updatedAt`. A replay leaves the table alone and the replay
/// comparison does not look at it; losing it loses nothing but how recent "last active" is.
///
/// Rows hold a session id and a time, nothing personal; a row outlives its session until
/// `forgetStaleSessionUses` removes it, once no session could still be alive to use it.

import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their table
type AnyDb = Kysely<any>

export type SessionLastUseTable = { session_id: string; last_used_at: Date }

export const sessionLastUseMigration = {
  async up(db: AnyDb): Promise<void> {
    await db.schema
      .createTable('tessera_session_last_use')
      .addColumn('session_id', 'text', (c) => c.primaryKey())
      .addColumn('last_used_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('tessera_session_last_use_at')
      .on('tessera_session_last_use')
      .column('last_used_at')
      .execute()
  },
}

type Tables = { tessera_session_last_use: SessionLastUseTable }
const tables = (db: AnyDb) => db as Kysely<Tables>

/** Records a use of the session at `at`; an earlier time never overwrites a later one. */
export const recordSessionUse = async (db: AnyDb, sessionId: string, at: Date): Promise<void> => {
  await tables(db)
    .insertInto('tessera_session_last_use')
    .values({ session_id: sessionId, last_used_at: at })
    .onConflict((oc) =>
      oc
        .column('session_id')
        .doUpdateSet({ last_used_at: at })
        .where('tessera_session_last_use.last_used_at', '<', at),
    )
    .execute()
}

/** When each of these sessions was last recorded as used; sessions never recorded are absent. */
export const lastUsesOfSessions = async (
  db: AnyDb,
  sessionIds: readonly string[],
): Promise<Map<string, Date>> => {
  if (sessionIds.length === 0) return new Map()
  const rows = await tables(db)
    .selectFrom('tessera_session_last_use')
    .selectAll()
    .where('session_id', 'in', [...sessionIds])
    .execute()
  return new Map(rows.map((row) => [row.session_id, row.last_used_at]))
}

/** Removes the rows last used before `before`: their sessions have expired by then. */
export const forgetStaleSessionUses = async (db: AnyDb, before: Date): Promise<void> => {
  await tables(db).deleteFrom('tessera_session_last_use').where('last_used_at', '<', before).execute()
}
