import { useState } from 'react'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Notice } from '../../ui/Notice.js'
import { usePortalConfig } from '../config/config.api.js'
import { isApiError } from '../errors/api-error.js'
import { messageFor } from '../errors/messages.js'
import type { OrganizationContext } from '../organizations/organization-context.js'
import {
  type SsoProviderSummary,
  txtRecordFor,
  useListSsoProvidersQuery,
  useRequestDomainVerificationMutation,
  useVerifyDomainMutation,
} from './organization-sso.api.js'
import './sso.css'

/// "Single sign-on" in the organization's settings, read-only: its identity providers, each with
/// its email domain and whether that domain is verified; for a pending one, the DNS TXT record to
/// publish and a "Check now" that asks the server to look it up.

const checkProblem = (error: unknown): string =>
  isApiError(error) && error.code === 'DOMAIN_VERIFICATION_FAILED'
    ? 'The record was not found yet. DNS changes can take a while to spread; check again later.'
    : messageFor(error)

const PendingDomain = ({
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
  const prefix = usePortalConfig()?.sso.domainVerificationPrefix
  const record = token ? txtRecordFor(provider, token, prefix) : null

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
      {record ? (
        <dl className="organization-sso-record">
          <dt>TXT record name</dt>
          <dd>
            <code>{record.name}</code>
          </dd>
          <dt>Value</dt>
          <dd>
            <code>{record.value}</code>
          </dd>
        </dl>
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

const ProviderRow = ({ provider, onVerified }: { provider: SsoProviderSummary; onVerified: () => void }) => (
  <li className="organization-sso-provider">
    <p>
      <strong>{provider.providerId}</strong>{' '}
      <span className="muted small">{provider.type.toUpperCase()}</span>
    </p>
    <p className="muted small organization-sso-value">{provider.issuer}</p>
    <p>
      <span className="organization-sso-value">{provider.domain}</span>{' '}
      {provider.domainVerified ? (
        <Badge tone="success">Verified</Badge>
      ) : (
        <Badge tone="warning">Not verified</Badge>
      )}
      {provider.ssoRequired ? <span className="muted small"> · SSO required for this domain</span> : null}
    </p>
    {provider.domainVerified ? null : <PendingDomain provider={provider} onVerified={onVerified} />}
  </li>
)

export const OrganizationSso = ({ context }: { context: OrganizationContext }) => {
  const list = useListSsoProvidersQuery()
  const providers = (list.data?.providers ?? []).filter(
    (provider) => provider.organizationId === context.organization.id,
  )
  return (
    <Card
      title="Single sign-on"
      description="The identity providers the organization’s people sign in with, by email domain."
    >
      <Notice tone="error">{list.error ? messageFor(list.error) : null}</Notice>
      {list.isLoading ? (
        <p className="muted">Loading…</p>
      ) : providers.length === 0 ? (
        <p className="muted">No identity provider yet.</p>
      ) : (
        <ul className="organization-sso-providers" aria-label="Identity providers">
          {providers.map((provider) => (
            <ProviderRow key={provider.providerId} provider={provider} onVerified={() => list.refetch()} />
          ))}
        </ul>
      )}
    </Card>
  )
}
