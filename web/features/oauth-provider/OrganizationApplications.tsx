import { useMemo } from 'react'
import type { OrganizationContext } from '../organizations/organization-context.js'
import { ClientsManager } from './ClientsManager.js'

/// The organization's own applications (OAuth clients) in its settings, for the roles that hold
/// the `oauthClient` permission (owners and admins unless custom roles say otherwise). The server
/// decides; without its answer the section stays hidden rather than offer what it would refuse.

const mayManage = (context: OrganizationContext): boolean =>
  context.viewer?.permissions.oauthClient?.includes('create') ?? false

export const OrganizationApplications = ({ context }: { context: OrganizationContext }) => {
  const organizationId = context.organization.id
  const scope = useMemo(() => ({ organizationId }), [organizationId])
  return mayManage(context) ? <ClientsManager scope={scope} listTitle="Applications" /> : null
}
