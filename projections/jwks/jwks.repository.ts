/// Queries over the signing keys.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { JwkRow } from './jwks.table.js'

/** Every key, oldest first; the set is small (one row per rotation). */
export const listSigningKeys = (db: Kysely<Database>): Promise<JwkRow[]> =>
  db.selectFrom('jwks').selectAll().orderBy('created_at').orderBy('kid').execute()
