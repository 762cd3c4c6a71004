/// Runs every migration of the event store and the read models, in name order. Names are ISO
/// timestamps; a migration is never edited after it lands (a changed read model gets a new one).

import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely'
import { readModelMigrations } from '../../projections/migrations.js'
import { dataKeysMigration } from '../event-store/personal-data/schema.js'
import { eventStoreMigration } from '../event-store/schema.js'

export const allMigrations = (): Record<string, Migration> => ({
  '2026-11-21T00:00:00Z_event-store': eventStoreMigration,
  '2026-11-22T00:20:00Z_data-keys': dataKeysMigration,
  ...readModelMigrations,
})

const provider: MigrationProvider = { getMigrations: async () => allMigrations() }

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
export const migrateToLatest = async (db: Kysely<any>): Promise<void> => {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  const failed = results?.find((result) => result.status === 'Error')
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error')
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`)
  }
}
