/// Read model: registered passkeys (`passkeys`), one row per passkey, in better-auth's fields: the
/// owner, the name they gave it, the credential id and COSE public key, the signature counter of the
/// last sign-in, device type, backup state, transports and AAGUID. A removed passkey's row is gone,
/// and so are a deleted user's.

import type { Kysely, Selectable } from 'kysely'

export type PasskeysTable = {
  id: string
  user_id: string
  /** Null when none was given, or once the owner's data key is gone. */
  name: string | null
  /** base64 (standard alphabet), as better-auth stores it. */
  public_key: string
  /** base64url, as the authenticator made it. */
  credential_id: string
  /** WebAuthn's counter is 32 bits unsigned: a double holds it exactly, and reads back as a number. */
  counter: number
  device_type: string
  backed_up: boolean
  /** Comma-separated, as better-auth stores it. */
  transports: string
  aaguid: string | null
  created_at: Date
}

export type PasskeyRow = Selectable<PasskeysTable>

export const passkeysMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('counter', 'double precision', (c) => c.notNull())
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('backed_up', 'boolean', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('aaguid', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute()
  },
}
