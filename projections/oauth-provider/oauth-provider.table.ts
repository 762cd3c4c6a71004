/// Read models of the OpenID provider: registered clients (the secret only as its SHA-256 hash),
/// each person's consents, and the grants they gave (for "Connected applications" and for ending a
/// client's grants when consent is revoked). Lists are stored as JSON text.

import type { Kysely, Selectable } from 'kysely'

export type OAuthClientsTable = {
  client_id: string
  user_id: string | null
  /** The organization that owns the client (the plugin's `reference_id`). */
  organization_id: string | null
  secret_hash: string | null
  /** ClientSettings (domain/oauth-provider/oauth-client.ts) as JSON. */
  settings: string
  source: string
  created_at: Date
  updated_at: Date
}

export type OAuthConsentsTable = {
  user_id: string
  client_id: string
  /** Space-separated, as OAuth writes scopes. */
  scopes: string
  created_at: Date
  updated_at: Date
}

export type OAuthGrantRowStatus = 'live' | 'revoked'

export type OAuthGrantsTable = {
  grant_id: string
  user_id: string
  client_id: string
  session_id: string
  scopes: string
  /**
   * `live` until the grant is revoked, then `revoked`: what readers ask is only whether it was
   * revoked (whether its code was exchanged is in the grant's stream, which decides).
   */
  status: OAuthGrantRowStatus
  created_at: Date
  updated_at: Date
}

export type OAuthClientRow = Selectable<OAuthClientsTable>
export type OAuthConsentRow = Selectable<OAuthConsentsTable>
export type OAuthGrantRow = Selectable<OAuthGrantsTable>

export const oauthProviderMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('oauth_clients')
      .addColumn('client_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text')
      .addColumn('secret_hash', 'text')
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('oauth_clients_user').on('oauth_clients').column('user_id').execute()
    await db.schema
      .createTable('oauth_consents')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('oauth_consents_pk', ['user_id', 'client_id'])
      .execute()
    await db.schema
      .createTable('oauth_grants')
      .addColumn('grant_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('oauth_grants_user_client')
      .on('oauth_grants')
      .columns(['user_id', 'client_id'])
      .execute()
  },
}

/** Clients owned by an organization (issue 35): `organization_id`, null for the others. */
export const oauthClientOrganizationsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('oauth_clients').addColumn('organization_id', 'text').execute()
    await db.schema
      .createIndex('oauth_clients_organization')
      .on('oauth_clients')
      .column('organization_id')
      .execute()
  },
}

/**
 * One value for every live grant (issue 35): rows said `code-issued` until revoked, and rows
 * written while exchanges were still projected say `active`; both become `live`, what the
 * projection now writes, so a replay gives the table the live path left.
 */
export const oauthGrantLiveStatusMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.updateTable('oauth_grants').set({ status: 'live' }).where('status', '!=', 'revoked').execute()
  },
}
