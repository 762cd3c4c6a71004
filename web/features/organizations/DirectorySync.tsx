import { useState } from 'react'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { Time } from '../../ui/Time.js'
import { isApiError } from '../errors/api-error.js'
import {
  type DirectoryCredential,
  useListDirectoryConnectionsQuery,
  useMintDirectoryTokenMutation,
  useRevokeDirectoryTokenMutation,
} from './directory-sync.api.js'
import type { OrganizationContext } from './organization-context.js'
import { ProvisionedPeople } from './ProvisionedPeople.js'

/// Directory sync (SCIM 2.0): the address and the tokens an identity provider (Okta, Entra ID)
/// provisions the organization's people with. A new token shows once, when it is made; the list
/// shows only which tokens exist, and each can be revoked at once.

const STATUS_TONE = { active: 'success', expired: 'warning', revoked: 'info' } as const

const errorText = (error: unknown): string | null =>
  error ? (isApiError(error) ? error.message : 'Something went wrong. Try again.') : null

const CredentialRow = ({
  credential,
  organizationId,
}: {
  credential: DirectoryCredential
  organizationId: string
}) => {
  const [revoke, { isLoading }] = useRevokeDirectoryTokenMutation()
  return (
    <li>
      <strong>{credential.credentialId.slice(0, 28)}…</strong>{' '}
      <Badge tone={STATUS_TONE[credential.status]}>{credential.status}</Badge>
      <p className="muted small">
        Made <Time value={credential.createdAt} /> · {credential.scopes.join(', ')}
      </p>
      {credential.status === 'active' ? (
        <Button
          variant="danger-outline"
          size="small"
          pending={isLoading}
          onClick={() => revoke({ organizationId, credentialId: credential.credentialId })}
        >
          Revoke
        </Button>
      ) : null}
    </li>
  )
}

export const DirectorySync = ({ context }: { context: OrganizationContext }) => {
  const organizationId = context.organization.id
  const list = useListDirectoryConnectionsQuery(organizationId)
  const [mint, minted] = useMintDirectoryTokenMutation()
  const [shown, setShown] = useState<string | null>(null)
  const credentials = list.data?.connections.flatMap((connection) => connection.credentials) ?? []
  const connection = list.data?.connections[0]
  const create = async () => {
    const answer = await mint({ organizationId })
    if ('data' in answer && answer.data) {
      setShown(answer.data.token)
      list.refetch()
    }
  }
  return (
    <Card
      title="Directory sync"
      description="Let your identity provider add, update and remove the organization’s people (SCIM 2.0)."
    >
      <p>
        SCIM base URL:{' '}
        <code className="directory-sync-value">{`${window.location.origin}/api/auth/scim/v2`}</code>
      </p>
      {shown ? (
        <Notice tone="success" title="Copy this token now: it will not be shown again.">
          <code className="directory-sync-value">{shown}</code>
        </Notice>
      ) : null}
      <Notice tone="error">{errorText(minted.error) ?? errorText(list.error)}</Notice>
      {credentials.length === 0 ? (
        <p className="muted">No token yet.</p>
      ) : (
        <ul aria-label="Directory sync tokens">
          {credentials.map((credential) => (
            <CredentialRow
              key={credential.credentialId}
              credential={credential}
              organizationId={organizationId}
            />
          ))}
        </ul>
      )}
      {/* In the row of actions, as on every card: a bare button in the card's column spans its width. */}
      <FormActions>
        <Button variant="primary" pending={minted.isLoading} onClick={create}>
          Create a token
        </Button>
      </FormActions>
      {connection?.provisioned ? (
        <ProvisionedPeople directory={connection} organizationId={organizationId} />
      ) : null}
    </Card>
  )
}
