import { useMemo } from 'react'
import { usePortalConfig } from '../config/config.api.js'
import type { OrganizationContext } from '../organizations/organization-context.js'
import { ClientsManager } from './ClientsManager.js'

/// The organization's own applications (OAuth clients) in its settings, for the roles that hold
/// the `oauthClient` permission (owners and admins unless custom roles say otherwise). The server
/// decides; without its answer the section stays hidden rather than offer what it would refuse, and
/// so it does where Tessera is no OpenID provider (`oauthProvider` off: the routes answer 404).

const mayManage = (context: OrganizationContext): boolean =>
  context.viewer?.permissions.oauthClient?.includes('create') ?? false

export const OrganizationApplications = ({ context }: { context: OrganizationContext }) => {
  const organizationId = context.organization.id
  const scope = useMemo(() => ({ organizationId }), [organizationId])
  const providing = usePortalConfig()?.oauthProvider?.enabled === true
  return providing && mayManage(context) ? <ClientsManager scope={scope} listTitle="Applications" /> : null
}
