import { useState } from 'react'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { isApiError } from '../errors/api-error.js'
import { messageFor } from '../errors/messages.js'
import type { OrganizationContext } from '../organizations/organization-context.js'
import { AddSsoProvider } from './AddSsoProvider.js'
import {
  domainsOf,
  type RegisteredSsoProvider,
  type SsoProviderSummary,
  useListSsoProvidersQuery,
  useRequestDomainVerificationMutation,
  useSetSsoRequirementMutation,
  useVerifyDomainMutation,
} from './organization-sso.api.js'
import { SetupDetails, setupOf, TxtRecords } from './ProviderSetup.js'
import './sso.css'

/// "Single sign-on" in the organization's settings: its identity providers, each with what the
/// IdP needs from us and its email domains (verified or not, SSO required or not); for pending
/// domains, the DNS TXT records and a "Check now"; and "Add an identity provider".

/** A missing record in words, naming the domain the server could not prove (its message names it). */
const checkProblem = (error: unknown): string => {
  if (!isApiError(error) || error.code !== 'DOMAIN_VERIFICATION_FAILED') return messageFor(error)
  const domain = /for (\S+)\. Try again later$/.exec(error.message)?.[1]
  return `The record was not found yet${domain ? ` under ${domain}` : ''}. DNS changes can take a while to spread; check again later.`
}

const verifiedOf = (provider: SsoProviderSummary) =>
  provider.verifiedDomains ?? (provider.domainVerified ? domainsOf(provider) : [])

const PendingDomains = ({
  provider,
  onVerified,
}: {
  provider: SsoProviderSummary
  onVerified: () => void
}) => {
  const [request, requested] = useRequestDomainVerificationMutation()
  const [verify, verifying] = useVerifyDomainMutation()
  const [problem, setProblem] = useState<string | null>(null)
  const token = requested.data?.domainVerificationToken
  const pending = domainsOf(provider).filter((domain) => !verifiedOf(provider).includes(domain))
  const check = async () => {
    setProblem(null)
    try {
      await verify({ providerId: provider.providerId }).unwrap()
      onVerified()
    } catch (error) {
      setProblem(checkProblem(error))
    }
  }
  return (
    <div className="organization-sso-pending">
      {token ? (
        <TxtRecords provider={provider} token={token} pending={pending} />
      ) : (
        <Button
          size="small"
          pending={requested.isLoading}
          pendingLabel="Getting the record…"
          onClick={() => request({ providerId: provider.providerId })}
        >
          Show the DNS record to add
        </Button>
      )}
      <Button size="small" pending={verifying.isLoading} pendingLabel="Checking…" onClick={check}>
        Check now
      </Button>
      <Notice tone="error">{problem ?? (requested.error ? messageFor(requested.error) : null)}</Notice>
    </div>
  )
}

type DomainProps = { provider: SsoProviderSummary; domain: string; onChanged: () => void }

const DomainRow = ({ provider, domain, onChanged }: DomainProps) => {
  const [setRequirement, { isLoading, error }] = useSetSsoRequirementMutation()
  const verified = verifiedOf(provider).includes(domain)
  const required =
    provider.ssoRequiredDomains?.includes(domain) ?? (provider.ssoRequired === true && verified)
  return (
    <li>
      <span className="organization-sso-value">{domain}</span>{' '}
      {verified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>}
      {required ? <span className="muted small"> · SSO required for this domain</span> : null}
      {verified ? (
        <Button
          size="small"
          pending={isLoading}
          onClick={async () => {
            const answer = await setRequirement({
              providerId: provider.providerId,
              domain,
              required: !required,
            })
            if ('data' in answer) onChanged()
          }}
        >
          {required ? `Stop requiring SSO for ${domain}` : `Require SSO for ${domain}`}
        </Button>
      ) : null}
      <Notice tone="error">{error ? messageFor(error) : null}</Notice>
    </li>
  )
}

const ProviderRow = ({ provider, onChanged }: { provider: SsoProviderSummary; onChanged: () => void }) => (
  <li className="organization-sso-provider">
    <p>
      <strong>{provider.providerId}</strong>{' '}
      <span className="muted small">{provider.type.toUpperCase()}</span>
    </p>
    <p className="muted small organization-sso-value">{provider.issuer}</p>
    <SetupDetails entries={setupOf(provider, window.location.origin)} />
    <ul className="organization-sso-domains" aria-label={`Domains of ${provider.providerId}`}>
      {domainsOf(provider).map((domain) => (
        <DomainRow key={domain} provider={provider} domain={domain} onChanged={onChanged} />
      ))}
    </ul>
    {provider.domainVerified ? null : <PendingDomains provider={provider} onVerified={onChanged} />}
  </li>
)

const Added = ({ provider }: { provider: RegisteredSsoProvider }) => (
  <Notice tone="success" title={`${provider.providerId} is added.`}>
    <p>Give your identity provider these details:</p>
    <SetupDetails
      entries={setupOf({ ...provider, type: provider.samlConfig ? 'saml' : 'oidc' }, window.location.origin)}
    />
    {provider.domainVerificationToken ? (
      <>
        <p>Then prove the domains are yours: add these DNS records, and choose “Check now” below.</p>
        <TxtRecords provider={provider} token={provider.domainVerificationToken} />
      </>
    ) : null}
  </Notice>
)

export const OrganizationSso = ({ context }: { context: OrganizationContext }) => {
  const list = useListSsoProvidersQuery()
  const [adding, setAdding] = useState(false)
  const [added, setAdded] = useState<RegisteredSsoProvider | null>(null)
  const providers = (list.data?.providers ?? []).filter(
    (provider) => provider.organizationId === context.organization.id,
  )
  return (
    <Card
      title="Single sign-on"
      description="The identity providers the organization’s people sign in with, by email domain."
    >
      <Notice tone="error">{list.error ? messageFor(list.error) : null}</Notice>
      {added ? <Added provider={added} /> : null}
      {list.isLoading ? (
        <p className="muted">Loading…</p>
      ) : providers.length === 0 ? (
        <p className="muted">No identity provider yet.</p>
      ) : (
        <ul className="organization-sso-providers" aria-label="Identity providers">
          {providers.map((provider) => (
            <ProviderRow key={provider.providerId} provider={provider} onChanged={() => list.refetch()} />
          ))}
        </ul>
      )}
      {adding ? (
        <AddSsoProvider
          organizationId={context.organization.id}
          onCancel={() => setAdding(false)}
          onAdded={(provider) => {
            setAdded(provider)
            setAdding(false)
            list.refetch()
          }}
        />
      ) : (
        <FormActions>
          <Button variant="primary" onClick={() => setAdding(true)}>
            Add an identity provider
          </Button>
        </FormActions>
      )}
    </Card>
  )
}
