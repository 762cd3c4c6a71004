/// The groups each SCIM connection keeps and their members: the read model SCIM's Group GET and
/// list answer from. `display_name_lower` and `external_id_lower` serve the case-insensitive `eq`
/// filters within one connection.

import type { Kysely } from 'kysely'

export type ScimGroupsTable = {
  group_id: string
  connection_id: string
  organization_id: string
  display_name: string
  display_name_lower: string
  external_id: string | null
  external_id_lower: string | null
  created_at: Date
  updated_at: Date
}

export type ScimGroupMembersTable = {
  group_id: string
  user_id: string
  created_at: Date
}

export const scimGroupsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('scim_groups')
      .addColumn('group_id', 'text', (c) => c.primaryKey())
      .addColumn('connection_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('display_name_lower', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('external_id_lower', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('scim_groups_page')
      .on('scim_groups')
      .columns(['connection_id', 'created_at', 'group_id'])
      .execute()
    await db.schema
      .createIndex('scim_groups_display_name')
      .on('scim_groups')
      .columns(['connection_id', 'display_name_lower'])
      .execute()
    await db.schema
      .createTable('scim_group_members')
      .addColumn('group_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'user_id'])
      .execute()
    // A person leaving (deprovisioned, deleted) leaves every group: looked up by person.
    await db.schema
      .createIndex('scim_group_members_user')
      .on('scim_group_members')
      .column('user_id')
      .execute()
  },
}
