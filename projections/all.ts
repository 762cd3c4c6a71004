/// Every read-model projection, in the order they are applied to each event.

import { linkedAccountsProjection } from './accounts/linked-accounts.projection.js'
import { activityProjection } from './activity/activity.projection.js'
import { adminActionsProjection } from './admin/admin-actions.js'
import { apiKeysProjection } from './api-keys/api-keys.projection.js'
import { jwksProjection } from './jwks/jwks.projection.js'
import { oauthProviderProjection } from './oauth-provider/oauth-provider.projection.js'
import { oneTimeTokensProjection } from './one-time-tokens/one-time-tokens.projection.js'
import { organizationsProjection } from './organizations/organizations.projection.js'
import { passkeysProjection } from './passkeys/passkeys.projection.js'
import { pendingEmailChangesProjection } from './pending-email-changes/pending-email-changes.projection.js'
import type { Projection } from './projection.js'
import { scimGroupsProjection } from './scim/scim-groups.projection.js'
import { scimUsersProjection } from './scim/scim-users.projection.js'
import { sessionsProjection } from './sessions/sessions.projection.js'
import { ssoProvidersProjection } from './sso/sso-providers.projection.js'
import { usersProjection } from './users/users.projection.js'
import { webhookEndpointsProjection } from './webhooks/webhook-endpoints.projection.js'

export const readModelProjections: readonly Projection[] = [
  // Before users: on a deletion it finds the person's address (their invitations go) in users.
  organizationsProjection,
  usersProjection,
  // After users: a social sign-up's account row follows its user's row.
  linkedAccountsProjection,
  sessionsProjection,
  oneTimeTokensProjection,
  // After users: it records only for users that exist.
  activityProjection,
  adminActionsProjection,
  jwksProjection,
  pendingEmailChangesProjection,
  apiKeysProjection,
  passkeysProjection,
  webhookEndpointsProjection,
  oauthProviderProjection,
  scimUsersProjection,
  scimGroupsProjection,
  ssoProvidersProjection,
]
