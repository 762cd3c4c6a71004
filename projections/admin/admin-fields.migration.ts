/// The admin plugin's fields on users (roles, ban) and sessions (the impersonating operator), and
/// the indexes operators' searches need: list-users searches email and name by substring, prefix
/// or suffix, so both get trigram indexes where PostgreSQL has pg_trgm.

import { type Kysely, sql } from 'kysely'

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
