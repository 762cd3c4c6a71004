/// Linked social accounts share the `accounts` read model with credential accounts (as better-auth
/// keeps them in one table), so list-accounts reads one table. This migration adds what a social
/// account has and a password account does not: the granted scopes and when its tokens expire. The
/// tokens themselves are not in any table: they stay sealed in the log (domain/linked-accounts).

import type { ColumnType, Kysely } from 'kysely'

/** Columns added to `accounts`; optional on insert, so credential rows leave them null. */
export type LinkedAccountColumns = {
  scope: ColumnType<string | null, string | null | undefined, string | null>
  access_token_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  refresh_token_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

export const linkedAccountsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .alterTable('accounts')
      .addColumn('scope', 'text')
      .addColumn('access_token_expires_at', 'timestamptz')
      .addColumn('refresh_token_expires_at', 'timestamptz')
      .execute()
  },
}
