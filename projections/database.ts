/// The read-model schema as Kysely sees it: one entry per table, filled by the projections.

import type { ActivityTable } from './activity/activity.table.js'
import type { AdminActionsTable } from './admin/admin-actions.table.js'
import type { ApiKeysTable } from './api-keys/api-keys.table.js'
import type { JwksTable } from './jwks/jwks.table.js'
import type {
  OAuthClientsTable,
  OAuthConsentsTable,
  OAuthGrantsTable,
} from './oauth-provider/oauth-provider.table.js'
import type { OneTimeTokensTable } from './one-time-tokens/one-time-tokens.table.js'
import type {
  OrganizationActivityTable,
  OrganizationInvitationsTable,
  OrganizationMembersTable,
  OrganizationRolesTable,
  OrganizationsTable,
  OrganizationTeamMembersTable,
  OrganizationTeamsTable,
} from './organizations/organizations.table.js'
import type { PasskeysTable } from './passkeys/passkeys.table.js'
import type { PendingEmailChangesTable } from './pending-email-changes/pending-email-changes.table.js'
import type { CheckpointsTable } from './runner/checkpoints.table.js'
import type { ScimGroupMembersTable, ScimGroupsTable } from './scim/scim-groups.table.js'
import type { ScimUsersTable } from './scim/scim-users.table.js'
import type { SessionsTable } from './sessions/sessions.table.js'
import type { SsoProviderDomainsTable } from './sso/sso-provider-domains.migration.js'
import type { SsoProvidersTable } from './sso/sso-providers.table.js'
import type { AccountsTable, UserLastSeenTable, UsersTable } from './users/users.table.js'
import type { WebhookEndpointsTable } from './webhooks/webhook-endpoints.table.js'
import type { WebhookResendsTable } from './webhooks/webhook-resends.table.js'

export type Database = {
  users: UsersTable
  user_last_seen: UserLastSeenTable
  accounts: AccountsTable
  sessions: SessionsTable
  one_time_tokens: OneTimeTokensTable
  activity: ActivityTable
  admin_actions: AdminActionsTable
  jwks: JwksTable
  pending_email_changes: PendingEmailChangesTable
  organizations: OrganizationsTable
  organization_members: OrganizationMembersTable
  organization_invitations: OrganizationInvitationsTable
  organization_teams: OrganizationTeamsTable
  organization_team_members: OrganizationTeamMembersTable
  organization_roles: OrganizationRolesTable
  organization_activity: OrganizationActivityTable
  tessera_checkpoints: CheckpointsTable
  api_keys: ApiKeysTable
  passkeys: PasskeysTable
  webhook_endpoints: WebhookEndpointsTable
  oauth_clients: OAuthClientsTable
  oauth_consents: OAuthConsentsTable
  oauth_grants: OAuthGrantsTable
  scim_users: ScimUsersTable
  scim_groups: ScimGroupsTable
  scim_group_members: ScimGroupMembersTable
  sso_providers: SsoProvidersTable
  sso_provider_domains: SsoProviderDomainsTable
  webhook_resends: WebhookResendsTable
}
