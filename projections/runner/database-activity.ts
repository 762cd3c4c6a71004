/// How busy the database is with everyone: what a catching-up projector paces itself by
/// (catch-up-pacing.ts).

import { type Kysely, sql } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: reads PostgreSQL's statistics, no table of ours
type AnyDb = Kysely<any>

/**
 * The transactions this database has finished (committed or rolled back) since its statistics were
 * last reset, as PostgreSQL counts them: a statement outside a transaction is one. Each backend adds
 * its own when it reports, about once a second. Null where they cannot be read.
 */
export const finishedTransactions = async (db: AnyDb): Promise<number | null> => {
  try {
    const { rows } = await sql<{ finished: string | null }>`
      select (xact_commit + xact_rollback)::text as finished
      from pg_stat_database where datname = current_database()`.execute(db)
    const finished = rows[0]?.finished
    return finished == null ? null : Number(finished)
  } catch {
    return null
  }
}
