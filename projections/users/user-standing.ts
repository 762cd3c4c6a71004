/// Whether a person may have a session started now, and the row an answer shows them, in one
/// statement: the `users` row (with its ban) and whether a directory deactivated them (the inline
/// `tessera_scim_deactivations`, written with the deactivation itself). The second step of a
/// sign-in reads it beside the two-factor stream instead of three reads one after the other.

import { type Kysely, sql } from 'kysely'
import type { Database } from '../database.js'
import { USER_COLUMNS, type UserRow } from './users.table.js'

export type UserStanding = { user: UserRow; deactivated: boolean }

export const findUserStanding = async (
  db: Kysely<Database>,
  userId: string,
): Promise<UserStanding | undefined> => {
  const row = await db
    .selectFrom('users')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .select(
      sql<boolean>`exists (select 1 from tessera_scim_deactivations d where d.user_id = users.id)`.as(
        'deactivated',
      ),
    )
    .where('users.id', '=', userId)
    .executeTakeFirst()
  if (!row) return undefined
  const { deactivated, ...user } = row
  return { user, deactivated }
}
