import { useEffect, useState } from 'react'
import { Link, useLocation } from 'react-router'
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
  type SignedInAccount,
  signedInAccount,
} from './oauth.requests.js'

/// The OpenID provider's consent page (`oauthProvider.consentPage`): which application asks, who
/// owns it, and what it may do, in words; the person allows or denies and goes where the answer says.
/// It names the account the application would get, with a way to sign in as another one first (the
/// login page takes the same signed request, and the authorization goes on from there).

export const OAuthConsentPage = () => {
  const { search } = useLocation()
  const params = new URLSearchParams(search)
  const clientId = params.get('client_id') ?? ''
  const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean)
  const [client, setClient] = useState<PublicClient | null>(null)
  const [account, setAccount] = useState<SignedInAccount | null>(null)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    publicClient(clientId).then(setClient, () => setFailed(true))
  }, [clientId])

  useEffect(() => {
    // Only a name to show: the consent itself is judged by the server against the session cookie.
    signedInAccount().then(
      (signedIn) => setAccount(signedIn?.user ?? null),
      () => setAccount(null),
    )
  }, [])

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
      {account ? (
        <p className="consent-account">
          You are signed in as <strong>{account.name || account.email}</strong>
          {account.name ? ` (${account.email})` : ''}.{' '}
          <Link to={`/oauth/login?${oauthQueryOf(search)}`}>Use another account</Link>
        </p>
      ) : null}
      <div className="consent-scopes">
        <p>It will be able to:</p>
        <ul>
          {scopes.map((scope) => (
            <li key={scope}>{SCOPE_WORDS[scope] ?? scope}</li>
          ))}
        </ul>
      </div>
      <Button variant="primary" pending={busy} onClick={() => void answer(true)}>
        Allow
      </Button>{' '}
      <Button disabled={busy} onClick={() => void answer(false)}>
        Deny
      </Button>
    </PublicCard>
  )
}
