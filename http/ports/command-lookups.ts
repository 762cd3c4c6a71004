/// Everything command use cases read from read models and operational tables, as ports on their
/// context (`CommandContext.lookups`). command-api does not import projections/ (the layer test
/// allows only the files it names, a list that can only shrink); what a command needs of a read
/// model is a small interface here, which the composition root implements over the repositories
/// (app/server/command-lookups.ts).

import type { ApiKeyRecords } from './api-key-records.js'
import type { OAuthClientLookup } from './oauth-client-lookup.js'
import type { OAuthStateStore } from './oauth-state-store.js'
import type { OneTimeTokenLookup } from './one-time-token-lookup.js'
import type { OrganizationLookup } from './organization-lookup.js'
import type { PasskeyLookup } from './passkey-lookup.js'
import type { SessionLookup } from './session-lookup.js'
import type { SigningKeyLookup } from './signing-key-lookup.js'
import type { SsoProviderLookup } from './sso-provider-lookup.js'
import type { UserLookup } from './user-lookup.js'
import type { WebhookLookup } from './webhook-lookup.js'

export type CommandLookups = {
  users: UserLookup
  sessions: SessionLookup
  oneTimeTokens: OneTimeTokenLookup
  oauthStates: OAuthStateStore
  apiKeys: ApiKeyRecords
  passkeys: PasskeyLookup
  organizations: OrganizationLookup
  signingKeys: SigningKeyLookup
  ssoProviders: SsoProviderLookup
  webhooks: WebhookLookup
  oauthClients: OAuthClientLookup
}
