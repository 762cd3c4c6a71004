/// Lookups in the `passkeys` read model. `userHasPasskey` is the one other features ask (a rule that
/// operators hold a second factor counts a passkey as one).

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { PasskeyRow } from './passkeys.table.js'

export const listPasskeysOfUser = (db: Kysely<Database>, userId: string): Promise<PasskeyRow[]> =>
  db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()

export const findPasskeyByCredentialId = (
  db: Kysely<Database>,
  credentialId: string,
): Promise<PasskeyRow | undefined> =>
  db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst()

export const findPasskeyById = (db: Kysely<Database>, id: string): Promise<PasskeyRow | undefined> =>
  db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst()

/** Does this user have at least one passkey? */
export const userHasPasskey = async (db: Kysely<Database>, userId: string): Promise<boolean> =>
  (await db.selectFrom('passkeys').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !==
  undefined

/**
 * How many passkeys a user has: the `PasskeyCount` the two-factor feature's `secondFactorsOf` takes
 * (a passkey counts as a second factor for `twoFactor.requiredFor`).
 */
export const countPasskeysOfUser = async (db: Kysely<Database>, userId: string): Promise<number> => {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}
