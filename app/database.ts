/// Tessera's database as the composition root sees it: the leaf adapter (infra/db) opened with the
/// read models' table layout, and every migration, the event store's and the read models', in one
/// list.

import type { Kysely } from 'kysely'
import { type DatabaseTarget, type OpenDatabase, openDatabase } from '../infra/db/database.js'
import { migrateToLatest, storeMigrations } from '../infra/db/migrate.js'
import type { Database } from '../projections/database.js'
import { readModelMigrations } from '../projections/migrations.js'
import { consistencyMigrations } from '../projections/runner/consistency.migrations.js'

export type TesseraDatabase = OpenDatabase<Database>

export const openTesseraDatabase = (target: DatabaseTarget): Promise<TesseraDatabase> =>
  openDatabase<Database>(target)

export const tesseraMigrations = { ...storeMigrations, ...readModelMigrations, ...consistencyMigrations }

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
export const migrateTessera = (db: Kysely<any>): Promise<void> => migrateToLatest(db, tesseraMigrations)
