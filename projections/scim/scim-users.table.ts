/// The people each SCIM connection provisioned: the read model SCIM's GET and list answer from,
/// joined with `users` for the name and address. `user_name_lower` and `external_id_lower` serve the
/// case-insensitive `eq` filters within one connection.

import type { Kysely, Selectable } from 'kysely'

export type ScimUsersTable = {
  user_id: string
  connection_id: string
  organization_id: string
  user_name: string
  user_name_lower: string
  external_id: string | null
  external_id_lower: string | null
  active: boolean
  created_at: Date
  updated_at: Date
}

export type ScimUserRow = Selectable<ScimUsersTable>

export const scimUsersMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('scim_users')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('connection_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('user_name_lower', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('external_id_lower', 'text')
      .addColumn('active', 'boolean', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    // Pages walk a connection's people in creation order; filters look up one value in it.
    await db.schema
      .createIndex('scim_users_page')
      .on('scim_users')
      .columns(['connection_id', 'created_at', 'user_id'])
      .execute()
    await db.schema
      .createIndex('scim_users_user_name')
      .on('scim_users')
      .columns(['connection_id', 'user_name_lower'])
      .execute()
    await db.schema
      .createIndex('scim_users_external_id')
      .on('scim_users')
      .columns(['connection_id', 'external_id_lower'])
      .execute()
  },
}
