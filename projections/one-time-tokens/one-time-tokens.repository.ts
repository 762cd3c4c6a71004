/// Queries over outstanding one-time tokens.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { OneTimeTokenRow, TokenPurpose } from './one-time-tokens.table.js'

export const findOneTimeToken = (
  db: Kysely<Database>,
  tokenHash: string,
  purpose: TokenPurpose,
): Promise<OneTimeTokenRow | undefined> =>
  db
    .selectFrom('one_time_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .executeTakeFirst()
