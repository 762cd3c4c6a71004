/// A migration's own test: a PGlite database migrated up to the step before the migration, so the
/// test can fill it as the previous version left it, then `toLatest` and look at what became of it.
/// The migrations are taken as the composition root lists them (app/database.ts), which a test of a
/// lower layer may not import.

import { PGlite } from '@electric-sql/pglite'
import { Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely'
import { pgliteExtensions } from '../../infra/db/database.js'
import { migrateToLatest, storeMigrations } from '../../infra/db/migrate.js'
import { pgliteDialect } from '../../infra/db/pglite-dialect.js'
import { readModelMigrations } from '../../projections/migrations.js'
import { consistencyMigrations } from '../../projections/runner/consistency.migrations.js'

const tesseraMigrations = { ...storeMigrations, ...readModelMigrations, ...consistencyMigrations }

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
type UntypedDb = Kysely<any>

export const databaseBefore = async (migration: string): Promise<UntypedDb> => {
  const db = new Kysely({
    dialect: pgliteDialect(new PGlite({ extensions: pgliteExtensions }), { closeClient: true }),
  })
  const names = Object.keys(tesseraMigrations).sort()
  const at = names.indexOf(migration)
  if (at < 1) throw new Error(`no migration before ${migration}`)
  const provider: MigrationProvider = {
    getMigrations: async () => tesseraMigrations as Record<string, Migration>,
  }
  const { error } = await new Migrator({ db, provider }).migrateTo(names[at - 1] as string)
  if (error) throw error
  return db
}

export const toLatest = (db: UntypedDb): Promise<void> => migrateToLatest(db, tesseraMigrations)
