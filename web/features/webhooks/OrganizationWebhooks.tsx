import type { OrganizationContext } from '../organizations/organization-context.js'
import { may } from '../organizations/viewer.api.js'
import { WebhookEndpoints } from './WebhookEndpoints.js'

/// The organization's own webhook endpoints, in its settings, for the roles that hold the `webhook`
/// permission (owners and admins unless custom roles say otherwise). They receive this
/// organization's events only.

const mayManage = (context: OrganizationContext): boolean =>
  context.viewer
    ? (context.viewer.permissions.webhook?.includes('create') ?? false)
    : may(context, 'organization:update')

export const OrganizationWebhooks = ({ context }: { context: OrganizationContext }) =>
  mayManage(context) ? (
    <WebhookEndpoints
      organizationId={context.organization.id}
      description="Send this organization’s events (members, invitations, teams, keys) to your application, signed."
    />
  ) : null
