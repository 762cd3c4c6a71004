/// How each session was signed in (`session.started`'s `amr`: `["pwd", "totp", "mfa"]`), for the
/// portal's device list, the operator console and the OpenID provider's ID tokens. Sessions started
/// before the column existed keep null: unknown, not "a password".

import type { Kysely } from 'kysely'

export const sessionAmrMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('sessions').addColumn('amr', 'jsonb').execute()
  },
}
