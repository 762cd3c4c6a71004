import { PageHeading } from '../../ui/PageHeading.js'
import { ApiKeysSections } from '../api-keys/ApiKeysSections.js'
import { useOrganization } from './organization-context.js'
import { RequirePermission } from './RequirePermission.js'

/**
 * The organization's own API keys, for its backends: the personal API keys page's parts, owned by
 * the organization. The server lets in the owner role and roles granting `apiKey`; anyone else
 * reaching this address reads its refusal in words.
 */
export const OrganizationApiKeysPage = () => {
  const { organization } = useOrganization()
  return (
    <RequirePermission needs={['apiKey:read']} title="API keys" what="its API keys">
      <PageHeading
        title="API keys"
        documentTitle={`API keys · ${organization.name}`}
        description={`Keys let the organization’s scripts and servers call applications as ${organization.name}, whoever created them. Treat each like a password.`}
      />
      <ApiKeysSections
        key={organization.id}
        owner={{ organizationId: organization.id }}
        words={{
          listTitle: 'The organization’s keys',
          listLabel: `${organization.name}’s API keys`,
          empty: 'This organization has no API keys yet.',
          loading: 'Loading the organization’s API keys…',
        }}
      />
    </RequirePermission>
  )
}
