import { useEffect, useState } from 'react'
import { useLocation, useSearchParams } from 'react-router'
import { Button } from '../../ui/Button.js'
import { Notice } from '../../ui/Notice.js'
import { messageFor } from '../errors/messages.js'
import { loginPageWith } from '../oauth-provider/hand-off.js'
import { describeCallbackError } from './callback-errors.js'
import './social.css'
import { goTo, listProviders, type SocialProvider, startSocialSignIn } from './social.requests.js'

type Props = {
  /** Where a returning user lands after the provider (a path of the portal). */
  returnTo: string
  /** On the OpenID provider's login page: the application's signed request, which goes on after. */
  oauthQuery?: string
}

/**
 * "Continue with <provider>" for each configured provider, and, when a provider sent the browser
 * back here with `?error=`, what went wrong in words. Renders nothing when no provider is offered.
 */
export const SocialButtons = ({ returnTo, oauthQuery }: Props) => {
  const [providers, setProviders] = useState<SocialProvider[]>([])
  const [pending, setPending] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [params] = useSearchParams()
  const { pathname } = useLocation()
  const callbackError = params.get('error')

  useEffect(() => {
    let live = true
    listProviders()
      .then((list) => {
        if (live) setProviders(list)
      })
      // No providers, or the list could not be read: the page offers passwords only.
      .catch(() => {})
    return () => {
      live = false
    }
  }, [])

  const start = async (provider: SocialProvider) => {
    if (pending) return
    setPending(provider.id)
    setFailure(null)
    try {
      const { url } = await startSocialSignIn(
        provider.id,
        returnTo,
        oauthQuery ? loginPageWith(oauthQuery) : pathname,
        oauthQuery,
      )
      goTo(url)
    } catch (error) {
      setFailure(messageFor(error))
      setPending(null)
    }
  }

  const problem = failure ?? (callbackError ? describeCallbackError(callbackError) : null)
  if (providers.length === 0) return <Notice tone="error">{problem}</Notice>
  return (
    <div className="social-sign-in">
      <Notice tone="error">{problem}</Notice>
      <ul className="stack" aria-label="Sign in with another service">
        {providers.map((provider) => (
          <li key={provider.id}>
            <Button
              onClick={() => start(provider)}
              pending={pending === provider.id}
              pendingLabel={`Opening ${provider.name}…`}
              disabled={pending !== null && pending !== provider.id}
            >
              Continue with {provider.name}
            </Button>
          </li>
        ))}
      </ul>
      <p className="small divider-text">or use your email</p>
    </div>
  )
}
