import { useEffect, useState } from 'react'
import { useLocation } from 'react-router'
import { Button } from '../../ui/Button.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { ClientIdentity } from './ClientIdentity.js'
import './oauth-provider.css'
import {
  answerConsent,
  oauthQueryOf,
  type PublicClient,
  publicClient,
  SCOPE_WORDS,
} from './oauth.requests.js'

/// The OpenID provider's consent page (`oauthProvider.consentPage`): which application asks, who
/// owns it, and what it may do, in words; the person allows or denies and goes where the answer says.

export const OAuthConsentPage = () => {
  const { search } = useLocation()
  const params = new URLSearchParams(search)
  const clientId = params.get('client_id') ?? ''
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean)
  const [client, setClient] = useState<PublicClient | null>(null)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    publicClient(clientId).then(setClient, () => setFailed(true))
  }, [clientId])

  const answer = async (accept: boolean) => {
    setBusy(true)
    try {
      window.location.assign((await answerConsent({ accept, oauth_query: oauthQueryOf(search) })).url)
    } catch {
      setFailed(true)
      setBusy(false)
    }
  }

  const name = client?.client_name ?? 'An application'
  return (
    <PublicCard title={`${name} wants to use your account`}>
      {client ? <ClientIdentity client={client} /> : null}
      {failed ? (
        <Notice tone="error">
          This request has expired or is not valid. Go back to the application and try again.
        </Notice>
      ) : null}
      <p>It will be able to:</p>
      <ul>
        {scopes.map((scope) => (
          <li key={scope}>{SCOPE_WORDS[scope] ?? scope}</li>
        ))}
      </ul>
      <Button variant="primary" pending={busy} onClick={() => void answer(true)}>
        Allow
      </Button>{' '}
      <Button disabled={busy} onClick={() => void answer(false)}>
        Deny
      </Button>
    </PublicCard>
  )
}
