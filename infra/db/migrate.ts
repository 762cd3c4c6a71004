/// Runs migrations in name order (the composition root passes the event store's and the read
/// models' together). Names are ISO
/// timestamps; a migration is never edited after it lands (a changed read model gets a new one).

import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely'
import { dataKeyRotationMigration, dataKeysMigration } from '../event-store/personal-data/schema.js'
import { appendRefusalMigration, eventStoreMigration } from '../event-store/schema.js'

/** The tables this layer owns: the event log and the data keys of the personal data in it. */
export const storeMigrations: Record<string, Migration> = {
  '2026-11-21T00:00:00Z_event-store': eventStoreMigration,
  '2026-11-22T00:20:00Z_data-keys': dataKeysMigration,
  '2026-11-25T04:00:00Z_data-key-rotation-and-tombstones': dataKeyRotationMigration,
  '2026-11-27T14:00:00Z_append-refusal': appendRefusalMigration,
}

export const migrateToLatest = async (
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
  db: Kysely<any>,
  migrations: Record<string, Migration>,
): Promise<void> => {
  const provider: MigrationProvider = { getMigrations: async () => migrations }
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  const failed = results?.find((result) => result.status === 'Error')
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error')
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`)
  }
}
