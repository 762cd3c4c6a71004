/// The signed-in user's accounts as list-accounts shows them: the credential account (when the
/// user has a password) and every linked social account, from the `accounts` read model.

import type { Kysely } from 'kysely'
import type { Database } from '../../projections/database.js'

export const listAccountsOf = (db: Kysely<Database>, userId: string) =>
  db
    .selectFrom('accounts')
    .select(['id', 'provider_id', 'account_id', 'user_id', 'scope', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()
