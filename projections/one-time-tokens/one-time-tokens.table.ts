/// Read model: outstanding one-time tokens (password reset, account deletion), by SHA-256 only.
/// A row goes when its token is used, voided or discarded after expiry.

import type { Kysely, Selectable } from 'kysely'

export type TokenPurpose = 'password-reset' | 'delete-account'

export type OneTimeTokensTable = {
  token_hash: string
  user_id: string
  purpose: TokenPurpose
  expires_at: Date
  created_at: Date
}

export type OneTimeTokenRow = Selectable<OneTimeTokensTable>

export const oneTimeTokensMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('one_time_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('one_time_tokens_user').on('one_time_tokens').column('user_id').execute()
  },
}
