/// The rotation-and-tombstones migration on a store the previous version left behind: a user whose
/// `user.deleted` is in the log but whose key survived (killed between the deletion and the key's
/// destruction) is erased by the upgrade; everybody else keeps their key.

import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { migrateToLatest, storeMigrations } from '../../db/migrate.js'
import { pgliteDialect } from '../../db/pglite-dialect.js'
import { createKeyring, SubjectErasedError } from './keyring.js'

const SECRET = 'schema-test-secret-0123456789abcdefghij'
const BEFORE = '2026-11-22T00:20:00Z_data-keys'

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
let db: Kysely<any>
beforeEach(async () => {
  db = new Kysely({ dialect: pgliteDialect(new PGlite(), { closeClient: true }) })
  const provider: MigrationProvider = {
    getMigrations: async () => storeMigrations as Record<string, Migration>,
  }
  const { error } = await new Migrator({ db, provider }).migrateTo(BEFORE)
  if (error) throw error
})
afterEach(() => db.destroy())

const appendDeletion = (userId: string) => sql`
  insert into tessera_events (event_id, stream_id, stream_version, type, data, metadata)
  values (${randomUUID()}, ${`user-${userId}`}, 2, 'user.deleted', ${JSON.stringify({ userId, email: 'sealed' })}::jsonb, '{}'::jsonb)`

it('erases the subjects whose deletion is in the log but whose key survived, and no one else', async () => {
  // The keys as the previous version left them; today's keyring writes `wrapped_by`, so the old
  // table has that column only while they are made.
  const old = createKeyring(db, SECRET)
  await db.schema.alterTable('tessera_data_keys').addColumn('wrapped_by', 'text').execute()
  await old.keyFor('crashed')
  await old.keyFor('alive')
  await db.schema.alterTable('tessera_data_keys').dropColumn('wrapped_by').execute()
  await appendDeletion('crashed').execute(db)

  await migrateToLatest(db, storeMigrations)

  const keyring = createKeyring(db, SECRET)
  expect(await keyring.existingKey('crashed')).toBeNull()
  await expect(keyring.keyFor('crashed')).rejects.toThrow(SubjectErasedError)
  expect(await keyring.existingKey('alive')).not.toBeNull()
})
