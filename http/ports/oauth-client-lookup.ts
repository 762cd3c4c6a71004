/// What the OpenID provider's use cases read of its read model (clients, consents, live grants), as
/// a port on the command context (`CommandContext.lookups.oauthClients`). Each method is the
/// repository function of the same name without its database, which the composition root binds
/// (app/server/command-lookups.ts).

import type { StoredClient } from '../../projections/oauth-provider/oauth-provider.repository.js'
import type { OAuthConsentRow } from '../../projections/oauth-provider/oauth-provider.table.js'
import type { Bound } from './bound.js'

export type { OAuthConsentRow, StoredClient }

type Repository = typeof import('../../projections/oauth-provider/oauth-provider.repository.js')

export type OAuthClientLookup = {
  findClient: Bound<Repository['findClient']>
  listClients: Bound<Repository['listClients']>
  findConsent: Bound<Repository['findConsent']>
  listConsents: Bound<Repository['listConsents']>
  listLiveGrants: Bound<Repository['listLiveGrants']>
  listLiveGrantsOfClient: Bound<Repository['listLiveGrantsOfClient']>
}
