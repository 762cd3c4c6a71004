/// Whether a person may have a session started now, and the row an answer shows them, in one
/// statement: the `users` row (with its ban) and whether a directory deactivated them (the inline
/// `tessera_scim_deactivations`, written with the deactivation itself). The second step of a
/// sign-in reads it beside the two-factor stream instead of three reads one after the other.

import { CompiledQuery, type Kysely, sql } from 'kysely'
import type { Database } from '../database.js'
import { USER_COLUMNS, type UserRow } from './users.table.js'

export type UserStanding = { user: UserRow; deactivated: boolean }

type StandingRow = UserRow & { deactivated: boolean }

const standingQuery = (db: Kysely<Database>, userId: string) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .select(
      sql<boolean>`exists (select 1 from tessera_scim_deactivations d where d.user_id = users.id)`.as(
        'deactivated',
      ),
    )
    .where('users.id', '=', userId)

// The statement's text, built once per database: building it (twenty column references parsed,
// then compiled) took more of the second step's CPU than sending it and reading its row. Its one
// parameter is the user id.
const texts = new WeakMap<Kysely<Database>, string>()

const textFor = (db: Kysely<Database>): string => {
  let text = texts.get(db)
  if (text === undefined) {
    text = standingQuery(db, '').compile().sql
    texts.set(db, text)
  }
  return text
}

export const findUserStanding = async (
  db: Kysely<Database>,
  userId: string,
): Promise<UserStanding | undefined> => {
  const query = CompiledQuery.raw(textFor(db), [userId]) as CompiledQuery<StandingRow>
  const { rows } = await db.executeQuery(query)
  const row = rows[0]
  if (!row) return undefined
  const { deactivated, ...user } = row
  return { user, deactivated }
}
