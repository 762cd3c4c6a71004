import { usePortalConfig } from '../config/config.api.js'
import { domainsOf, txtRecordFor } from './organization-sso.api.js'

/// What the identity provider's administrator needs from us, for one provider: the callback URL
/// (OpenID Connect), or the SP metadata, entity ID and ACS URL (SAML); and, while domains wait to
/// be proved, the DNS TXT record to publish under each of them.

const API = '/api/auth'

export const setupOf = (
  provider: { providerId: string; type: 'oidc' | 'saml'; spMetadataUrl?: string | undefined },
  origin: string,
) => {
  const id = encodeURIComponent(provider.providerId)
  if (provider.type === 'oidc')
    return [{ label: 'Callback URL', value: `${origin}${API}/sso/callback/${id}` }]
  const metadata = provider.spMetadataUrl ?? `${origin}${API}/sso/saml2/sp/metadata?providerId=${id}`
  return [
    { label: 'SP metadata', value: metadata },
    { label: 'ACS URL', value: `${origin}${API}/sso/saml2/sp/acs/${id}` },
  ]
}

export const SetupDetails = ({ entries }: { entries: { label: string; value: string }[] }) => (
  <dl className="organization-sso-record">
    {entries.map(({ label, value }) => (
      <div key={label}>
        <dt>{label}</dt>
        <dd>
          <code>{value}</code>
        </dd>
      </div>
    ))}
  </dl>
)

/** The TXT record for each domain still to prove (one token per provider, as the plugin has it). */
export const TxtRecords = ({
  provider,
  token,
  pending,
}: {
  provider: { providerId: string; domain: string }
  token: string
  pending?: readonly string[]
}) => {
  const prefix = usePortalConfig()?.sso.domainVerificationPrefix
  const domains = pending ?? domainsOf(provider)
  return (
    <dl className="organization-sso-record" aria-label="DNS records to add">
      {domains.map((domain) => {
        const record = txtRecordFor(provider, token, prefix, domain)
        return (
          <div key={domain}>
            <dt>TXT record name</dt>
            <dd>
              <code>{record.name}</code>
            </dd>
            <dt>Value</dt>
            <dd>
              <code>{record.value}</code>
            </dd>
          </div>
        )
      })}
    </dl>
  )
}
