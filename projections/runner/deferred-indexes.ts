/// Indexes a full replay builds once after the load instead of row by row. A projection names the
/// indexes of its tables that only the read side uses (`Projection.readerIndexes`: a directory's
/// sort orders, its trigram search), never a lookup of its own statements. Kept up row by row they
/// cost most of a replay's database time (every `last_seen_at` update rewrote two GIN trigram
/// indexes besides the sort orders), while one CREATE INDEX over the filled table costs a fraction.
///
/// Their definitions are written to `tessera_deferred_indexes` in the transaction that drops them
/// (the replay's reset), and the table is emptied in the one that builds them again: a replay that
/// stops halfway leaves them there, and the next replay, which drops them again as it starts, builds
/// them when it ends.

import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'

export const deferredIndexesMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tessera_deferred_indexes')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('definition', 'text', (c) => c.notNull())
      .execute()
  },
}

/** The reader-only indexes of `projections` (names), those declared and not unique. */
const declared = (projections: readonly Projection[]): string[] => [
  ...new Set(projections.flatMap((projection) => projection.readerIndexes ?? [])),
]

/**
 * In the replay's reset transaction: records the declared indexes that exist (their definitions
 * as the database gives them) and drops them. Unique indexes are never dropped: the write plan and
 * ON CONFLICT rely on them.
 */
export const dropReaderIndexes = async (
  trx: Transaction<Database>,
  projections: readonly Projection[],
): Promise<void> => {
  const names = declared(projections)
  if (names.length === 0) return
  const { rows } = await sql<{ name: string; definition: string }>`
    select c.relname as name, pg_get_indexdef(c.oid) as definition
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_namespace s on s.oid = c.relnamespace
    where s.nspname = current_schema() and not i.indisunique and c.relname = any(${names}::text[])`.execute(
    trx,
  )
  for (const { name, definition } of rows) {
    await sql`
      insert into tessera_deferred_indexes (name, definition) values (${name}, ${definition})
      on conflict (name) do update set definition = excluded.definition`.execute(trx)
    await sql`drop index ${sql.id(name)}`.execute(trx)
  }
}

/** After the replay's last batch: builds every recorded index again and forgets it, in one transaction. */
export const buildDeferredIndexes = async (db: Kysely<Database>): Promise<void> => {
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ name: string; definition: string }>`
      select name, definition from tessera_deferred_indexes order by name for update`.execute(trx)
    for (const { definition } of rows)
      await sql.raw(definition.replace(/^CREATE INDEX /i, 'CREATE INDEX IF NOT EXISTS ')).execute(trx)
    await sql`delete from tessera_deferred_indexes`.execute(trx)
  })
}
