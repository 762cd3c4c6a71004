/// Whether a person may have a session started now, and the row an answer shows them, in one
/// statement: the `users` row (with its ban) and whether a directory deactivated them (the inline
/// `tessera_scim_deactivations`, written with the deactivation itself). The second step of a
/// sign-in reads it beside the two-factor stream instead of three reads one after the other; the
/// reads of concurrent second steps asked in one turn of the event loop go as one statement.

import { CompiledQuery, type Kysely, sql } from 'kysely'
import type { Database } from '../database.js'
import { USER_COLUMNS, type UserRow } from './users.table.js'

export type UserStanding = { user: UserRow; deactivated: boolean }

type StandingRow = UserRow & { deactivated: boolean }

const standingQuery = (db: Kysely<Database>) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .select(
      sql<boolean>`exists (select 1 from tessera_scim_deactivations d where d.user_id = users.id)`.as(
        'deactivated',
      ),
    )
    // The ids come through a sub-select so that PostgreSQL keeps one generic plan for the statement
    // (the primary key's index) instead of planning it on every read (sql-event-rows.ts says why).
    .where(sql<boolean>`users.id = any((select ${[]}::text[])::text[])`)

// The statement's text, built once per database: building it (twenty column references parsed,
// then compiled) took more of the second step's CPU than sending it and reading its rows. Its one
// parameter is the people's ids.
const texts = new WeakMap<Kysely<Database>, string>()

const textFor = (db: Kysely<Database>): string => {
  let text = texts.get(db)
  if (text === undefined) {
    text = standingQuery(db).compile().sql
    texts.set(db, text)
  }
  return text
}

/** The standing of each of these people who has a row, by id. */
export const findUserStandings = async (
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Map<string, UserStanding>> => {
  const query = CompiledQuery.raw(textFor(db), [userIds]) as CompiledQuery<StandingRow>
  const { rows } = await db.executeQuery(query)
  return new Map(rows.map(({ deactivated, ...user }) => [user.id, { user, deactivated }]))
}

/**
 * `findUserStandings` for one person at a time, the lookups asked in one turn of the event loop
 * read together: concurrent second steps share a statement instead of one each (issue 33). Every
 * lookup still reads the table after it was asked.
 */
export const coalescedUserStandings = (db: Kysely<Database>) => {
  let pending: { ids: Set<string>; read: Promise<Map<string, UserStanding>> } | null = null
  return async (userId: string): Promise<UserStanding | undefined> => {
    if (!pending) {
      const ids = new Set<string>()
      const read = new Promise<Map<string, UserStanding>>((resolve, reject) =>
        setImmediate(() => {
          pending = null
          findUserStandings(db, [...ids]).then(resolve, reject)
        }),
      )
      pending = { ids, read }
    }
    pending.ids.add(userId)
    return (await pending.read).get(userId)
  }
}
