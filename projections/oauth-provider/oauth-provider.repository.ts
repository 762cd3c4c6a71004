/// Lookups of the OpenID provider's read models.

import type { Kysely } from 'kysely'
import type { ClientSettings } from '../../domain/oauth-provider/oauth-client.js'
import type { Database } from '../database.js'
import type { OAuthConsentRow, OAuthGrantRow } from './oauth-provider.table.js'

export type StoredClient = {
  clientId: string
  userId: string | null
  organizationId: string | null
  secretHash: string | null
  settings: ClientSettings
  source: string
  createdAt: Date
  updatedAt: Date
}

const toClient = (row: {
  client_id: string
  user_id: string | null
  organization_id: string | null
  secret_hash: string | null
  settings: string
  source: string
  created_at: Date
  updated_at: Date
}): StoredClient => ({
  clientId: row.client_id,
  userId: row.user_id,
  organizationId: row.organization_id,
  secretHash: row.secret_hash,
  settings: JSON.parse(row.settings) as ClientSettings,
  source: row.source,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export const findClient = async (
  db: Kysely<Database>,
  clientId: string,
): Promise<StoredClient | undefined> => {
  const row = await db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst()
  return row && toClient(row)
}

/** Every client, a person's own (`userId`), or an organization's (`organizationId`). */
export const listClients = async (
  db: Kysely<Database>,
  userId: string | null,
  organizationId: string | null = null,
): Promise<StoredClient[]> => {
  let query = db.selectFrom('oauth_clients').selectAll().orderBy('created_at')
  if (organizationId !== null) query = query.where('organization_id', '=', organizationId)
  else if (userId !== null) query = query.where('user_id', '=', userId)
  return (await query.execute()).map(toClient)
}

export const findConsent = (
  db: Kysely<Database>,
  userId: string,
  clientId: string,
): Promise<OAuthConsentRow | undefined> =>
  db
    .selectFrom('oauth_consents')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()

export const listConsents = (db: Kysely<Database>, userId: string): Promise<OAuthConsentRow[]> =>
  db
    .selectFrom('oauth_consents')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .execute()

/** A person's grants to a client that are not revoked. */
export const listLiveGrants = (
  db: Kysely<Database>,
  userId: string,
  clientId: string,
): Promise<OAuthGrantRow[]> =>
  db
    .selectFrom('oauth_grants')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .where('status', '!=', 'revoked')
    .execute()

/** Every grant to a client that is not revoked, whoever gave it (a deleted client ends them all). */
export const listLiveGrantsOfClient = (db: Kysely<Database>, clientId: string): Promise<OAuthGrantRow[]> =>
  db
    .selectFrom('oauth_grants')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('status', '!=', 'revoked')
    .execute()
