/// Whole-table snapshots for comparing two databases (or one database at two moments): every row of
/// each table, ordered by its primary key, so equal contents give deep-equal snapshots.

import { type Kysely, sql } from 'kysely'
import { readModelProjections } from '../../projections/all.js'
import type { Projection } from '../../projections/projection.js'

// biome-ignore lint/suspicious/noExplicitAny: snapshots read any table, typed or not
type AnyDb = Kysely<any>

export type TableSnapshot = Record<string, Record<string, unknown>[]>

/** Every table the given projections declare: what `replay` rebuilds. */
export const readModelTables = (projections: readonly Projection[] = readModelProjections): string[] => [
  ...new Set(projections.flatMap((projection) => projection.tables)),
]

const primaryKeyOf = async (db: AnyDb, table: string): Promise<string[]> => {
  const { rows } = await sql<{ column: string }>`
    select a.attname as column
    from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = ${table}::regclass and i.indisprimary
    order by array_position(i.indkey::int2[], a.attnum)`.execute(db)
  if (rows.length === 0) throw new Error(`table ${table} has no primary key: its rows have no stable order`)
  return rows.map((row) => row.column)
}

export const snapshotTables = async (db: AnyDb, tables: readonly string[]): Promise<TableSnapshot> => {
  const snapshot: TableSnapshot = {}
  for (const table of tables) {
    const key = await primaryKeyOf(db, table)
    const { rows } = await sql<Record<string, unknown>>`
      select * from ${sql.table(table)} order by ${sql.join(key.map((column) => sql.ref(column)))}`.execute(
      db,
    )
    snapshot[table] = rows
  }
  return snapshot
}

/** Tables of the public schema, other than the event store's, checkpoints and Kysely's own. */
export const tablesOutsideTheLog = async (db: AnyDb): Promise<string[]> => {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not like 'tessera\\_%' and table_name not like 'kysely\\_%'
    order by table_name`.execute(db)
  return rows.map((row) => row.name)
}
