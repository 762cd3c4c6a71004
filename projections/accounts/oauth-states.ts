/// OAuth state records: an OPERATIONAL table, not a read model and not in the log (a flow that was
/// started and abandoned is nobody's history). One row per started sign-in or link, keyed by the
/// SHA-256 of its 32-character state, holding the flow's data (callback URLs, PKCE verifier, nonce,
/// who links) sealed with a key derived from the secret, for 10 minutes. Taking a record deletes
/// it in the same statement, so a state works once; an expired record is deleted when looked up.

import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their table
type AnyDb = Kysely<any>

export type OAuthStateTable = { state_hash: string; sealed: string; expires_at: Date }

export const oauthStatesMigration = {
  async up(db: AnyDb): Promise<void> {
    await db.schema
      .createTable('tessera_oauth_states')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute()
  },
}

type Tables = { tessera_oauth_states: OAuthStateTable }
const tables = (db: AnyDb) => db as Kysely<Tables>

export const saveOAuthState = async (db: AnyDb, row: OAuthStateTable): Promise<void> => {
  await tables(db).insertInto('tessera_oauth_states').values(row).execute()
}

/** The record, left in place; null when there is none. */
export const findOAuthState = async (db: AnyDb, stateHash: string): Promise<OAuthStateTable | null> =>
  (await tables(db)
    .selectFrom('tessera_oauth_states')
    .selectAll()
    .where('state_hash', '=', stateHash)
    .executeTakeFirst()) ?? null

/**
 * Deletes and returns the record, expired or not (the caller tells); null when there is none, or
 * when another request took it first.
 */
export const takeOAuthState = async (db: AnyDb, stateHash: string): Promise<OAuthStateTable | null> =>
  (await tables(db)
    .deleteFrom('tessera_oauth_states')
    .where('state_hash', '=', stateHash)
    .returningAll()
    .executeTakeFirst()) ?? null

/** Removes records nobody came back for. */
export const forgetExpiredOAuthStates = async (db: AnyDb, now: Date): Promise<void> => {
  await tables(db).deleteFrom('tessera_oauth_states').where('expires_at', '<=', now).execute()
}
