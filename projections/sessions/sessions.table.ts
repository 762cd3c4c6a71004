/// Read model: live sessions. A revoked or expired session's row is deleted; the log keeps its story.

import type { ColumnType, Kysely, Selectable } from 'kysely'

export type SessionsTable = {
  id: string
  user_id: string
  /** SHA-256 of the session token: the raw token is never stored. */
  token_hash: string
  expires_at: Date
  ip_address: string | null
  user_agent: string | null
  /** ISO 3166-1 alpha-2 code of the country a trusted proxy placed the device in; null when unknown. */
  place_country: string | null
  /** The city a trusted proxy placed the device in; null when unknown. */
  place_city: string | null
  remember_me: boolean
  active_organization_id: string | null
  /** The active team (organization plugin; the column comes with the organizations migration). */
  active_team_id: string | null
  /** The operator who opened this session as its user (admin impersonation); null otherwise. */
  impersonated_by: string | null
  /** How the session was signed in (`["pwd", "totp", "mfa"]`, domain/session/amr.ts); null when unknown. */
  amr: ColumnType<string[] | null, string | null, never>
  created_at: Date
  updated_at: Date
}

export type SessionRow = Selectable<SessionsTable>

export const sessionsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('ip_address', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('remember_me', 'boolean', (c) => c.notNull())
      .addColumn('active_organization_id', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute()
  },
}

/** Where each device was when its session started (`session.started`'s `place`), when known. */
export const sessionPlaceMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('sessions').addColumn('place_country', 'text').execute()
    await db.schema.alterTable('sessions').addColumn('place_city', 'text').execute()
  },
}
