/// Read model: users and their accounts (credential accounts for now; social ones later).

import type { Insertable, Kysely, Selectable } from 'kysely'
import { sql } from 'kysely'
import type { LinkedAccountColumns } from '../accounts/linked-accounts.table.js'

export type UsersTable = {
  id: string
  email: string
  name: string
  image: string | null
  email_verified: boolean
  /** Lowercased; null for a user without one. */
  username: string | null
  display_username: string | null
  /** Comma-separated roles (admin plugin); null: the default role. */
  role: string | null
  banned: boolean
  ban_reason: string | null
  ban_expires: Date | null
  created_at: Date
  updated_at: Date
}

/** When each person was last seen (last-seen.ts): a row per person seen at least once, none for the never seen. */
export type UserLastSeenTable = {
  user_id: string
  last_seen_at: Date
}

export type AccountsTable = {
  id: string
  user_id: string
  provider_id: string
  account_id: string
  password: string | null
  created_at: Date
  updated_at: Date
} & LinkedAccountColumns

/**
 * Every column of `users`, by name: a query that names its columns is prepared on PostgreSQL, one
 * with a `*` is planned anew each time (infra/db/pg-prepared.ts). The queries answer a `UserRow`,
 * so the compiler checks that the list is whole.
 */
export const USER_COLUMNS = [
  'id',
  'email',
  'name',
  'image',
  'email_verified',
  'username',
  'display_username',
  'role',
  'banned',
  'ban_reason',
  'ban_expires',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UsersTable)[]

export type UserRow = Selectable<UsersTable>
export type NewUserRow = Insertable<UsersTable>
export type AccountRow = Selectable<AccountsTable>

export const usersMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('image', 'text')
      .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('users_email').on('users').column('email').execute()
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('password', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('accounts_user').on('accounts').column('user_id').execute()
    await sql`create unique index accounts_provider_account on accounts (provider_id, account_id)`.execute(db)
  },
}

/**
 * Usernames on users. Not a unique index: the store's claims keep usernames unique, and a
 * projection must never fail on what the log holds.
 */
export const usernamesMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .alterTable('users')
      .addColumn('username', 'text')
      .addColumn('display_username', 'text')
      .execute()
    await db.schema.createIndex('users_username').on('users').column('username').execute()
  },
}
