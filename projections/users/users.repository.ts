/// Queries over the users read model.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import { CREDENTIAL_PROVIDER } from './users.projection.js'
import { USER_COLUMNS, type UserRow } from './users.table.js'

export const findUserById = (db: Kysely<Database>, id: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst()

/** A user as the operator directory shows them: their row and when they were last seen (null: never). */
export type UserWithLastSeen = UserRow & { last_seen_at: Date | null }

/** The user `id` and their last-seen time (last-seen.ts), joined by key. */
export const findUserWithLastSeen = (
  db: Kysely<Database>,
  id: string,
): Promise<UserWithLastSeen | undefined> =>
  db
    .selectFrom('users')
    .leftJoin('user_last_seen', 'user_last_seen.user_id', 'users.id')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .select('user_last_seen.last_seen_at')
    .where('users.id', '=', id)
    .executeTakeFirst()

/** Only the ban of the user `id` (a check on every sign-in, which needs none of the rest). */
export const findBanOf = (
  db: Kysely<Database>,
  id: string,
): Promise<Pick<UserRow, 'banned' | 'ban_expires'> | undefined> =>
  db.selectFrom('users').select(['banned', 'ban_expires']).where('id', '=', id).executeTakeFirst()

export type FoundCredential = { user: UserRow; passwordHash: string | null }

/** The user whose `column` is `value`, and the password hash of their credential account, if any. */
const findCredentialBy = async (
  db: Kysely<Database>,
  column: 'users.email' | 'users.username',
  value: string,
): Promise<FoundCredential | undefined> => {
  const row = await db
    .selectFrom('users')
    .leftJoin('accounts', (join) =>
      join.onRef('accounts.user_id', '=', 'users.id').on('accounts.provider_id', '=', CREDENTIAL_PROVIDER),
    )
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .select('accounts.password')
    .where(column, '=', value)
    .executeTakeFirst()
  if (!row) return undefined
  const { password, ...user } = row
  return { user, passwordHash: password ?? null }
}

/** The user with this (normalised) email and the password hash of their credential account, if any. */
export const findCredentialByEmail = (db: Kysely<Database>, email: string) =>
  findCredentialBy(db, 'users.email', email)

/** The user with this (normalised, lowercased) username and their password hash, if any. */
export const findCredentialByUsername = (db: Kysely<Database>, username: string) =>
  findCredentialBy(db, 'users.username', username)

export const findUserByEmail = (db: Kysely<Database>, email: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').select(USER_COLUMNS).where('email', '=', email).executeTakeFirst()

/** The password hash of the user's credential account, or null when they have none. */
export const findPasswordHash = async (db: Kysely<Database>, userId: string): Promise<string | null> => {
  const row = await db
    .selectFrom('accounts')
    .select('password')
    .where('user_id', '=', userId)
    .where('provider_id', '=', CREDENTIAL_PROVIDER)
    .executeTakeFirst()
  return row?.password ?? null
}
