/// Trigram indexes for list-users' searches: a part of an email or a name, in any case (`ilike`
/// with a leading `%`), which a b-tree cannot serve, so each search read the whole users table.
/// pg_trgm ships with PostgreSQL's contrib (trusted: a database owner may create it) and with
/// PGlite, which loads it only when asked (infra/db/database.ts, `pgliteExtensions`).
///
/// `fastupdate = off`: by default GIN parks new entries in a pending list that only a vacuum
/// merges, and the planner prices that list so high that after a burst of sign-ups it goes back to
/// reading the table. PGlite has no autovacuum at all. Users are written rarely and searched often,
/// so each write pays for its index entries at once.

import { type Kysely, sql } from 'kysely'

export const usersSearchMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await sql`create extension if not exists pg_trgm`.execute(db)
    await sql`create index users_email_trgm on users using gin (email gin_trgm_ops) with (fastupdate = off)`.execute(
      db,
    )
    await sql`create index users_name_trgm on users using gin (name gin_trgm_ops) with (fastupdate = off)`.execute(
      db,
    )
  },
}
