import { useCallback, useEffect, useRef, useState } from 'react'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { isApiError } from '../errors/api-error.js'
import { messageFor } from '../errors/messages.js'
import { type Consent, deleteConsent, listConsents, SCOPE_WORDS } from './oauth.requests.js'
import './oauth-provider.css'
import { useBranding } from '../../ui/branding.js'

const nameOf = (consent: Consent) => consent.clientName || consent.clientId
const since = (consent: Consent) => new Date(consent.updatedAt).toLocaleDateString()

/**
 * The Security page's "Connected applications": each application the person let sign them in
 * through Tessera, what it may see, since when, and Disconnect (the consent is revoked and every
 * token the application holds stops working). Absent when Tessera is not an OpenID provider.
 */
export const ConnectedApplications = () => {
  const { productName } = useBranding()
  const [consents, setConsents] = useState<Consent[] | null>(null)
  const [absent, setAbsent] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [news, setNews] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  const load = useCallback(async () => setConsents(await listConsents()), [])
  useEffect(() => {
    load().catch((error) => {
      // The provider is switched off: its routes do not exist, and neither does this card.
      if (isApiError(error) && error.status === 404) setAbsent(true)
      else setProblem(messageFor(error))
    })
  }, [load])

  const disconnected = async (consent: Consent) => {
    await load()
    setNews(`${nameOf(consent)} is disconnected. It can no longer act for you.`)
    heading.current?.focus()
  }

  if (absent) return null
  if (consents === null) return problem ? <Notice tone="error">{problem}</Notice> : <Loading />
  return (
    <Card
      title="Connected applications"
      description={`Applications you let sign you in with your ${productName} account, and what each may see.`}
      headingRef={heading}
    >
      <Notice tone="error">{problem}</Notice>
      <Notice tone="success">{news}</Notice>
      {consents.length === 0 ? <p>No application is connected to your account.</p> : null}
      <ul className="rows" aria-label="Your connected applications">
        {consents.map((consent) => (
          <ApplicationRow
            key={consent.id}
            consent={consent}
            onDisconnected={disconnected}
            onProblem={setProblem}
          />
        ))}
      </ul>
    </Card>
  )
}

type RowProps = {
  consent: Consent
  onDisconnected: (consent: Consent) => Promise<void>
  onProblem: (problem: string | null) => void
}

const ApplicationRow = ({ consent, onDisconnected, onProblem }: RowProps) => {
  const [asking, setAsking] = useState(false)
  const [pending, setPending] = useState(false)
  const ask = useRef<HTMLButtonElement>(null)
  const name = nameOf(consent)
  const disconnect = async () => {
    setPending(true)
    onProblem(null)
    try {
      await deleteConsent(consent.id)
      await onDisconnected(consent)
    } catch (error) {
      onProblem(messageFor(error))
      setPending(false)
    }
  }
  const cancel = () => {
    setAsking(false)
    // Back to the button that asked, once it is on the page again.
    requestAnimationFrame(() => ask.current?.focus())
  }
  return (
    <li className="connected-app">
      <div className="connected-app-summary">
        <strong>{name}</strong>
        <span className="small">Connected since {since(consent)}</span>
        <ul className="connected-app-scopes small" aria-label={`What ${name} may do`}>
          {consent.scopes.map((scope) => (
            <li key={scope}>{SCOPE_WORDS[scope] ?? scope}</li>
          ))}
        </ul>
      </div>
      {asking ? (
        <Confirm
          question={`Disconnect ${name}?`}
          consequence="It will be signed out and can no longer see your account until you allow it again."
          confirmLabel="Disconnect"
          pendingLabel="Disconnecting…"
          pending={pending}
          size="small"
          onConfirm={() => void disconnect()}
          onCancel={cancel}
        />
      ) : (
        <Button ref={ask} size="small" variant="danger-outline" onClick={() => setAsking(true)}>
          Disconnect {name}
        </Button>
      )}
    </li>
  )
}
