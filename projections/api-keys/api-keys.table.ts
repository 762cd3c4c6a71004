/// Read model: live API keys (`api_keys`), one row per key, from the key's events: who owns it (a
/// user, or an organization), its settings, its hash (SHA-256, base64url; never the key). A deleted
/// or expired key's row is gone.
///
/// Beside it, the OPERATIONAL table `tessera_api_key_usage`: the counters a verification moves
/// (remaining, requestCount, lastRequest, lastRefillAt) and the uses not yet summarised in the log.
/// Verification updates it atomically with one guarded UPDATE (api-keys.repository.ts), which is
/// what makes 100 concurrent verifications of a key with 10 remaining give exactly 10 valid
/// answers. A replay leaves it alone: the projection only creates a row (never overwriting one) and
/// sets `remaining` from an event newer than the one that last set it (`remaining_version`).
/// `disabled` and `revoked_at` are written INLINE, in the transaction of the event that disables,
/// deletes or expires the key or deletes its owner (api-key-revocations.ts), so verification
/// refuses the key on every instance the moment that event commits, whatever the projector's lag.

import { type Generated, type Kysely, type Selectable, sql } from 'kysely'

export type ApiKeysTable = {
  id: string
  /** The owning user; null for an organization's key. */
  user_id: string | null
  /** The owning organization; null for a user's key. */
  organization_id: string | null
  name: string | null
  prefix: string | null
  start: string
  /** The key's last four characters; null for keys made before they were kept. */
  last_four: string | null
  key_hash: string
  enabled: boolean
  expires_at: Date | null
  refill_amount: number | null
  refill_interval: number | null
  rate_limit_enabled: boolean
  rate_limit_time_window: number | null
  rate_limit_max: number | null
  /** JSON text: `{ resource: [actions] }`, or null. */
  permissions: string | null
  /** JSON text, or null. */
  metadata: string | null
  created_at: Date
  updated_at: Date
}

export type ApiKeyUsageTable = {
  key_id: string
  remaining: number | null
  /** The key stream's version of the event that last set `remaining`. */
  remaining_version: number
  last_refill_at: Date | null
  request_count: Generated<number>
  last_request: Date | null
  /** Successful verifications since the last `api-key.used` summary, and since when. */
  unrecorded_uses: Generated<number>
  unrecorded_since: Date | null
  /** Set inline by `api-key.disabled`, cleared by `api-key.enabled`. */
  disabled: Generated<boolean>
  /**
   * Set inline when the key is deleted or expires, or its owner is deleted: verification refuses it
   * from then on. The row stays a while for uses other instances still hold, then the sweep records
   * what is left in the log and deletes it (command-api/api-key/api-key-uses.ts).
   */
  revoked_at: Date | null
}

export type ApiKeyRow = Selectable<ApiKeysTable>
export type ApiKeyUsageRow = Selectable<ApiKeyUsageTable>

export const apiKeysMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('prefix', 'text')
      .addColumn('start', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('enabled', 'boolean', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz')
      .addColumn('refill_amount', 'integer')
      .addColumn('refill_interval', 'double precision')
      .addColumn('rate_limit_enabled', 'boolean', (c) => c.notNull())
      .addColumn('rate_limit_time_window', 'double precision')
      .addColumn('rate_limit_max', 'integer')
      .addColumn('permissions', 'text')
      .addColumn('metadata', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute()
  },
}

export const apiKeyUsageMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tessera_api_key_usage')
      .addColumn('key_id', 'text', (c) => c.primaryKey())
      .addColumn('remaining', 'integer')
      .addColumn('remaining_version', 'integer', (c) => c.notNull())
      .addColumn('last_refill_at', 'timestamptz')
      .addColumn('request_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_request', 'timestamptz')
      .addColumn('unrecorded_uses', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('unrecorded_since', 'timestamptz')
      .execute()
  },
}

/**
 * Organization-owned keys (`api_keys.organization_id`, `user_id` now nullable) and the inline
 * refusal columns of the usage table (`disabled`, `revoked_at`), filled from the read model for
 * keys that exist already.
 */
export const apiKeyOwnersAndRevocationsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('api_keys').addColumn('organization_id', 'text').execute()
    await db.schema
      .alterTable('api_keys')
      .alterColumn('user_id', (c) => c.dropNotNull())
      .execute()
    await db.schema.createIndex('api_keys_organization').on('api_keys').column('organization_id').execute()
    await db.schema
      .alterTable('tessera_api_key_usage')
      .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute()
    await db.schema.alterTable('tessera_api_key_usage').addColumn('revoked_at', 'timestamptz').execute()
    await sql`update tessera_api_key_usage set disabled = true
      where key_id in (select id from api_keys where not enabled)`.execute(db)
    await db.schema
      .createIndex('tessera_api_key_usage_revoked')
      .on('tessera_api_key_usage')
      .column('revoked_at')
      .where(sql.ref('revoked_at'), 'is not', null)
      .execute()
  },
}

/** The last four characters of each new key (`api_keys.last_four`); keys made before have none. */
export const apiKeyLastFourMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('api_keys').addColumn('last_four', 'text').execute()
  },
}
