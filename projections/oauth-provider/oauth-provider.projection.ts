/// Projects clients, consents and grants. A deleted user's consents and grants go with them; a
/// deleted client's rows go too (its grants were revoked by the deletion's use case); a deleted
/// organization's clients go with it, with their consents and grants, as its API keys do.

import type { Transaction } from 'kysely'
import type { OAuthClientEvent } from '../../domain/oauth-provider/oauth-client.js'
import type { OAuthConsentEvent } from '../../domain/oauth-provider/oauth-consent.js'
import type { OAuthGrantEvent } from '../../domain/oauth-provider/oauth-grant.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

type Trx = Transaction<Database>

const applyClient = async (trx: Trx, event: OAuthClientEvent, at: Date) => {
  switch (event.type) {
    case 'oauth-client.registered': {
      const { clientId, userId, settings, secretHash, source, createdAt } = event.data
      await trx
        .insertInto('oauth_clients')
        .values({
          client_id: clientId,
          user_id: userId,
          organization_id: event.data.organizationId ?? null,
          secret_hash: secretHash,
          settings: JSON.stringify(settings),
          source,
          created_at: new Date(createdAt),
          updated_at: new Date(createdAt),
        })
        .onConflict((oc) => oc.column('client_id').doNothing())
        .execute()
      return
    }
    case 'oauth-client.updated': {
      const row = await trx
        .selectFrom('oauth_clients')
        .select('settings')
        .where('client_id', '=', event.data.clientId)
        .executeTakeFirst()
      if (!row) return
      const settings = { ...JSON.parse(row.settings), ...event.data.changes }
      await trx
        .updateTable('oauth_clients')
        .set({ settings: JSON.stringify(settings), updated_at: at })
        .where('client_id', '=', event.data.clientId)
        .execute()
      return
    }
    case 'oauth-client.secret-rotated':
      await trx
        .updateTable('oauth_clients')
        .set({ secret_hash: event.data.secretHash, updated_at: at })
        .where('client_id', '=', event.data.clientId)
        .execute()
      return
    case 'oauth-client.deleted':
      await trx.deleteFrom('oauth_clients').where('client_id', '=', event.data.clientId).execute()
      await trx.deleteFrom('oauth_consents').where('client_id', '=', event.data.clientId).execute()
      return
  }
}

const applyGrant = async (trx: Trx, event: OAuthGrantEvent, at: Date) => {
  const { grantId } = event.data
  if (event.type === 'oauth-grant.code-issued') {
    const { userId, clientId, sessionId, scopes } = event.data
    await trx
      .insertInto('oauth_grants')
      .values({
        grant_id: grantId,
        user_id: userId,
        client_id: clientId,
        session_id: sessionId,
        scopes: scopes.join(' '),
        status: 'live',
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('grant_id').doNothing())
      .execute()
    return
  }
  // Only a revocation changes what the row's readers ask (is the grant live?): an exchange and a
  // refresh leave it as it is, which spares each of them a statement in the projector's
  // transaction. Nothing reads a grant's `updated_at`.
  if (event.type !== 'oauth-grant.revoked') return
  await trx
    .updateTable('oauth_grants')
    .set({ status: 'revoked', updated_at: at })
    .where('grant_id', '=', grantId)
    .execute()
}

const applyConsent = async (trx: Trx, event: OAuthConsentEvent, at: Date) => {
  const { userId, clientId } = event.data
  if (event.type === 'oauth-consent.revoked') {
    await trx
      .deleteFrom('oauth_consents')
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .execute()
    return
  }
  const scopes = event.data.scopes.join(' ')
  await trx
    .insertInto('oauth_consents')
    .values({ user_id: userId, client_id: clientId, scopes, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet({ scopes, updated_at: at }))
    .execute()
}

export const oauthProviderProjection: Projection = {
  name: 'oauth-provider',
  tables: ['oauth_clients', 'oauth_consents', 'oauth_grants'],
  handles: eventTypes(
    'oauth-client.',
    'oauth-grant.',
    'oauth-consent.',
    'user.deleted',
    'organization.deleted',
  ),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded: RecordedEvent) {
    const at = new Date(recorded.metadata.at)
    if (recorded.type === 'user.deleted') {
      const { userId } = recorded.data as { userId: string }
      await trx.deleteFrom('oauth_consents').where('user_id', '=', userId).execute()
      await trx.deleteFrom('oauth_grants').where('user_id', '=', userId).execute()
      return
    }
    if (recorded.type === 'organization.deleted') {
      const { organizationId } = recorded.data as { organizationId: string }
      const owned = trx
        .selectFrom('oauth_clients')
        .select('client_id')
        .where('organization_id', '=', organizationId)
      await trx.deleteFrom('oauth_consents').where('client_id', 'in', owned).execute()
      await trx.deleteFrom('oauth_grants').where('client_id', 'in', owned).execute()
      await trx.deleteFrom('oauth_clients').where('organization_id', '=', organizationId).execute()
      return
    }
    if (recorded.type.startsWith('oauth-client.'))
      return applyClient(trx, recorded as unknown as OAuthClientEvent, at)
    if (recorded.type.startsWith('oauth-grant.'))
      return applyGrant(trx, recorded as unknown as OAuthGrantEvent, at)
    if (recorded.type.startsWith('oauth-consent.'))
      return applyConsent(trx, recorded as unknown as OAuthConsentEvent, at)
  },
}
