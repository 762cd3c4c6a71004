/// WebAuthn challenges: an OPERATIONAL table, not a read model and not in the log (an abandoned
/// ceremony is nobody's history). One row per generated set of options, keyed by the SHA-256 of the
/// random token the asking browser holds in its signed challenge cookie: the ceremony (registration
/// or authentication), the challenge, and for a registration the user it is for. Taking a row deletes
/// it in the same statement, so a challenge works once, and only for the browser that holds the
/// cookie; rows live five minutes, as better-auth's.

import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: these helpers serve any schema that has their table
type AnyDb = Kysely<any>

export type PasskeyChallengeTable = {
  token_hash: string
  ceremony: 'registration' | 'authentication'
  challenge: string
  /** The registering user; for an authentication, the signed-in user who asked, if any. */
  user_id: string | null
  expires_at: Date
}

export const passkeyChallengesMigration = {
  async up(db: AnyDb): Promise<void> {
    await db.schema
      .createTable('tessera_passkey_challenges')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('ceremony', 'text', (c) => c.notNull())
      .addColumn('challenge', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .execute()
  },
}

type Tables = { tessera_passkey_challenges: PasskeyChallengeTable }
const tables = (db: AnyDb) => db as Kysely<Tables>

/** Saves a challenge, and forgets those nobody came back for (the table holds minutes of them). */
export const saveChallenge = async (db: AnyDb, row: PasskeyChallengeTable, now: Date): Promise<void> => {
  await tables(db).deleteFrom('tessera_passkey_challenges').where('expires_at', '<=', now).execute()
  await tables(db).insertInto('tessera_passkey_challenges').values(row).execute()
}

/** Deletes and returns the challenge, expired or not (the caller tells); null when none, or taken. */
export const takeChallenge = async (db: AnyDb, tokenHash: string): Promise<PasskeyChallengeTable | null> =>
  (await tables(db)
    .deleteFrom('tessera_passkey_challenges')
    .where('token_hash', '=', tokenHash)
    .returningAll()
    .executeTakeFirst()) ?? null
