/// A session advisory lock held on one pinned connection for the duration of some work.

import { type Kysely, sql } from 'kysely'
import type { Database } from '../../database.js'

/**
 * Runs `work` holding a session advisory lock on one pinned connection, or answers `busy` at once
 * when another process holds it. A session lock (not a transaction lock) because the work sends
 * mail: no transaction should stay open across a network call.
 */
export const withAdvisoryLock = <T>(
  db: Kysely<Database>,
  key: string,
  work: (q: Kysely<Database>) => Promise<T>,
): Promise<T | 'busy'> =>
  db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_lock(hashtextextended(${key}, 0)) as locked`.execute(conn)
    if (rows[0]?.locked !== true) return 'busy'
    try {
      return await work(conn)
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn)
    }
  })
