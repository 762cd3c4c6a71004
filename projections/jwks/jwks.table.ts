/// Read model: the JWT signing keys (`jwks`), one row per key: its public JWK, its private JWK only
/// as sealed under the secret (infra/crypto/jwt/sealed-key.ts), and when it started and stopped
/// signing. A retired row stays: `/jwks` decides from `retired_at` when the key stops being published.

import type { Kysely, Selectable } from 'kysely'

export type JwksTable = {
  kid: string
  alg: string
  /** The public JWK as JSON text. */
  public_key: string
  /** The private JWK sealed (AES-256-GCM under a key derived from the secret); never plain. */
  private_key: string
  created_at: Date
  retired_at: Date | null
}

export type JwkRow = Selectable<JwksTable>

export const jwksMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('jwks')
      .addColumn('kid', 'text', (c) => c.primaryKey())
      .addColumn('alg', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('retired_at', 'timestamptz')
      .execute()
  },
}
