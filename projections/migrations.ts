/// Migrations of every read model, keyed by ISO-timestamped name. Never edit one that has landed.

import type { Migration } from 'kysely'
import { linkedAccountsMigration } from './accounts/linked-accounts.table.js'
import { oauthStatesMigration } from './accounts/oauth-states.js'
import { activityMigration } from './activity/activity.table.js'
import { adminActionsMigration } from './admin/admin-actions.js'
import { adminFieldsMigration } from './admin/admin-fields.migration.js'
import { usersSearchMigration } from './admin/users-search.migration.js'
import {
  apiKeyLastFourMigration,
  apiKeyOwnersAndRevocationsMigration,
  apiKeysMigration,
  apiKeyUsageMigration,
} from './api-keys/api-keys.table.js'
import { jwksMigration } from './jwks/jwks.table.js'
import {
  oauthClientOrganizationsMigration,
  oauthGrantLiveStatusMigration,
  oauthProviderMigration,
} from './oauth-provider/oauth-provider.table.js'
import { oauthRevocationsMigration } from './oauth-provider/oauth-revocations.js'
import { oneTimeTokensMigration } from './one-time-tokens/one-time-tokens.table.js'
import { organizationActivityMigration, organizationsMigration } from './organizations/organizations.table.js'
import { passkeyChallengesMigration } from './passkeys/passkey-challenges.js'
import { passkeysMigration } from './passkeys/passkeys.table.js'
import { pendingEmailChangesMigration } from './pending-email-changes/pending-email-changes.table.js'
import { mailDeadLettersMigration } from './reactors/mail/dead-letters.table.js'
import {
  webhookDeliveriesMigration,
  webhookDeliveryIndexesMigration,
  webhookDeliveryReplayFromMigration,
} from './reactors/webhooks/webhook-deliveries.table.js'
import { checkpointsMigration } from './runner/checkpoints.table.js'
import { deferredIndexesMigration } from './runner/deferred-indexes.js'
import { scimGroupsMigration } from './scim/scim-groups.table.js'
import { scimInlineMigration } from './scim/scim-inline.js'
import { scimUsersMigration } from './scim/scim-users.table.js'
import { sessionAmrMigration } from './sessions/session-amr.js'
import { sessionLastUseMigration } from './sessions/session-last-use.js'
import { sessionPlaceMigration, sessionsMigration } from './sessions/sessions.table.js'
import { ssoProviderDomainsMigration } from './sso/sso-provider-domains.migration.js'
import { ssoProvidersMigration } from './sso/sso-providers.table.js'
import { samlAssertionClaimsMigration } from './sso-saml/saml-assertion-claims.js'
import { userLastSeenTableMigration, usersLastSeenMigration } from './users/last-seen.js'
import { usernamesMigration, usersMigration } from './users/users.table.js'
import { webhookEndpointsMigration } from './webhooks/webhook-endpoints.table.js'
import { webhookResendsMigration } from './webhooks/webhook-resends.table.js'

export const readModelMigrations: Record<string, Migration> = {
  '2026-11-21T00:01:00Z_checkpoints': checkpointsMigration,
  '2026-11-21T00:02:00Z_users': usersMigration,
  '2026-11-21T00:03:00Z_sessions': sessionsMigration,
  '2026-11-21T00:04:00Z_one-time-tokens': oneTimeTokensMigration,
  '2026-11-22T00:10:00Z_mail-dead-letters': mailDeadLettersMigration,
  '2026-11-22T00:30:00Z_activity': activityMigration,
  '2026-11-23T00:40:00Z_jwks': jwksMigration,
  '2026-11-23T01:00:00Z_users-usernames': usernamesMigration,
  '2026-11-24T00:10:00Z_pending-email-changes': pendingEmailChangesMigration,
  // Operational, not a read model: when sessions were last used (sessions/session-last-use.ts).
  '2026-11-24T00:11:00Z_session-last-use': sessionLastUseMigration,
  // Also adds sessions.active_team_id.
  '2026-11-25T01:00:00Z_organizations': organizationsMigration,
  '2026-11-25T01:01:00Z_organization-activity': organizationActivityMigration,
  '2026-11-25T03:00:00Z_linked-accounts': linkedAccountsMigration,
  // Operational, not a read model: started OAuth flows (accounts/oauth-states.ts).
  '2026-11-25T03:01:00Z_oauth-states': oauthStatesMigration,
  '2026-11-25T06:00:00Z_admin-fields': adminFieldsMigration,
  '2026-11-25T06:01:00Z_admin-actions': adminActionsMigration,
  '2026-11-25T02:00:00Z_api-keys': apiKeysMigration,
  // Operational, not a read model: the counters API-key verification moves (api-keys/api-keys.table.ts).
  '2026-11-25T02:01:00Z_api-key-usage': apiKeyUsageMigration,
  '2026-11-26T06:00:00Z_session-place': sessionPlaceMigration,
  '2026-11-27T03:00:00Z_users-search': usersSearchMigration,
  // Organization-owned keys; the usage table's inline refusals (disabled, revoked_at).
  '2026-11-27T01:00:00Z_api-key-owners-and-revocations': apiKeyOwnersAndRevocationsMigration,
  '2026-11-28T10:00:00Z_passkeys': passkeysMigration,
  // Operational, not a read model: WebAuthn challenges (passkeys/passkey-challenges.ts).
  '2026-11-28T10:01:00Z_passkey-challenges': passkeyChallengesMigration,
  '2026-11-28T10:00:00Z_webhook-endpoints': webhookEndpointsMigration,
  // Operational, not a read model: delivery attempts and each endpoint's checkpoint.
  '2026-11-28T10:01:00Z_webhook-deliveries': webhookDeliveriesMigration,
  '2026-11-28T10:00:00Z_oauth-provider': oauthProviderMigration,
  '2026-11-28T10:00:00Z_scim-users': scimUsersMigration,
  // Operational, written inline: deactivated people and organizations' SCIM credentials.
  '2026-11-28T10:01:00Z_scim-inline': scimInlineMigration,
  '2026-11-28T14:30:00Z_sso-providers': ssoProvidersMigration,
  '2026-11-28T15:00:00Z_webhook-delivery-replay-from': webhookDeliveryReplayFromMigration,
  // Operational, not a read model: used SAML assertion ids (sso-saml/saml-assertion-claims.ts).
  '2026-11-28T15:00:00Z_saml-assertion-claims': samlAssertionClaimsMigration,
  '2026-11-28T15:30:00Z_session-amr': sessionAmrMigration,
  // A read model (resend requests) and the attempts' `resend_id` (operational).
  '2026-11-28T18:00:00Z_webhook-resends': webhookResendsMigration,
  '2026-11-28T18:10:00Z_scim-groups': scimGroupsMigration,
  '2026-11-28T19:40:00Z_api-key-last-four': apiKeyLastFourMigration,
  '2026-11-28T21:39:37Z_users-last-seen': usersLastSeenMigration,
  '2026-11-28T21:44:00Z_oauth-client-organizations': oauthClientOrganizationsMigration,
  '2026-11-28T21:45:14Z_sso-provider-domains': ssoProviderDomainsMigration,
  // Operational, written inline: what ends the OpenID provider's tokens (oauth-provider/oauth-revocations.ts).
  '2026-11-29T01:29:00Z_oauth-revocations': oauthRevocationsMigration,
  // Operational: the reader-only indexes a replay in progress has dropped (runner/deferred-indexes.ts).
  '2026-11-29T12:30:00Z_deferred-indexes': deferredIndexesMigration,
  // Last seen off the `users` row, into a table of its own (users/last-seen.ts).
  '2026-11-29T13:10:00Z_user-last-seen': userLastSeenTableMigration,
  // The attempts' indexes that no read used go (operational table).
  '2026-11-29T16:30:00Z_webhook-delivery-indexes': webhookDeliveryIndexesMigration,
  // Live grants' rows all say `live` (they said `code-issued` or `active`).
  '2026-11-29T23:40:00Z_oauth-grant-live-status': oauthGrantLiveStatusMigration,
}
