/// The ports every command use case and route of this layer works with, passed in by the
/// composition root (app/): configuration, the event store and `handle`, read models for lookups,
/// session resolution and the clock. No transport objects: the CLI and tests call use cases too.

import type { Kysely } from 'kysely'
import type { OrganizationDecider } from '../domain/organization/organization.js'
import type { SecondFactorCheck } from '../http/guards/admin-caller.js'
import type { CommandLookups } from '../http/ports/command-lookups.js'
import type { SessionResolver } from '../http/sessions/resolve-session.js'
import type { Config } from '../infra/config/config.js'
import type { EventStore } from '../infra/event-store/event-store.js'
import type { Database } from '../projections/database.js'
import type { ApiKeyCache } from './api-key/api-key-cache.js'
import type { ApiKeyUses } from './api-key/api-key-uses.port.js'
import type { OAuthProviderCache } from './oauth-provider/provider-cache.js'
import type { Handle } from './shared/handle.js'

export type PersonKeys = {
  /** The unique-claim key: a rotation of AUTH_SECRET re-wraps it but never changes it. */
  claimKey(): Promise<Buffer>
  /** False once the subject was erased (its key can never seal again); a key is made if none yet. */
  canSeal(subject: string): Promise<boolean>
}

export type CommandContext = {
  config: Config
  db: Kysely<Database>
  store: EventStore
  handle: Handle
  sessions: SessionResolver
  clock: () => Date
  /** Erases a deleted user's personal data from the log (destroys their data key). */
  eraseUser: (userId: string) => Promise<void>
  /** What use cases that name a person's key themselves (invitees, by address) need of the keyring. */
  personKeys: PersonKeys
  /** API keys by hash, where this process may trust a cache (it projects); null elsewhere. */
  apiKeyCache: ApiKeyCache | null
  /** Uses of API keys counted in memory and written in batches (api-key/api-key-uses.ts). */
  apiKeyUses: ApiKeyUses
  /** The organization aggregate with the configured policy bound (app/ binds it once, from config). */
  organizations: OrganizationDecider
  /** Whether a person has a second factor, for `twoFactor.requiredFor` (two-factor/second-factors.ts). */
  secondFactors?: SecondFactorCheck
  /** Takes a SAML assertion id once, durably, until `expiresAt` (projections/sso-saml); false on a replay. */
  samlAssertionClaims?: (claimId: string, expiresAt: Date, now: Date) => Promise<boolean>
  /** What use cases read of read models, as ports (http/ports/command-lookups.ts), not repositories. */
  lookups: CommandLookups
  /** The OpenID provider's clients and live token origins, where this process may trust a cache (it projects). */
  oauthCache?: OAuthProviderCache | null
}
