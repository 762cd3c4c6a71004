/// The admin plugin's fields on users (roles, ban) and sessions (the impersonating operator), and
/// indexes for list-users' usual orders (by creation, by name). Searches by part of an email or
/// name are served by the trigram indexes of users-search.migration.ts.

import type { Kysely } from 'kysely'

export const adminFieldsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .alterTable('users')
      .addColumn('role', 'text')
      .addColumn('banned', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('ban_reason', 'text')
      .addColumn('ban_expires', 'timestamptz')
      .execute()
    await db.schema.alterTable('sessions').addColumn('impersonated_by', 'text').execute()
    await db.schema.createIndex('users_created_at').on('users').column('created_at').execute()
    await db.schema.createIndex('users_name').on('users').column('name').execute()
  },
}
