import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
} from '@simplewebauthn/browser'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { signedIn } from '../../app/session-events.js'
import { Button } from '../../ui/Button.js'
import { Notice } from '../../ui/Notice.js'
import { goOn, isWayOn } from '../oauth-provider/hand-off.js'
import { passkeyProblem } from './passkey-messages.js'
import { authenticationOptions, verifyAuthentication } from './passkeys.requests.js'
import './passkeys.css'

type Props = {
  returnTo: string
  /** On the OpenID provider's login page: the application's signed request, which goes on after. */
  oauthQuery?: string
}

/**
 * "Sign in with a passkey", and passkey autofill: while the page is open, a conditional request
 * lets the browser offer the person's passkeys in the suggestions of the username field (the one
 * whose `autocomplete` ends in `webauthn`). A passkey sign-in is whole: no second step follows.
 */
export const PasskeySignIn = ({ returnTo, oauthQuery }: Props) => {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const supported = useRef(browserSupportsWebAuthn())

  const signIn = async (autofill: boolean) => {
    const optionsJSON = await authenticationOptions()
    let response: Awaited<ReturnType<typeof startAuthentication>>
    try {
      response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill })
    } catch (error) {
      // Autofill is offered, not asked for: a browser or device that cannot hold that request
      // open (or a click on the button, which cancels it) is no failure to show on arrival.
      if (autofill) return
      throw error
    }
    setBusy(true)
    const answer = await verifyAuthentication(response, oauthQuery)
    if (isWayOn(answer)) return goOn(answer)
    signedIn()
    navigate(returnTo, { replace: true })
  }

  // Once per visit of the page: a new request would cancel the one the browser holds.
  // biome-ignore lint/correctness/useExhaustiveDependencies: started once, on arrival
  useEffect(() => {
    let active = true
    void browserSupportsWebAuthnAutofill().then((autofill) => {
      if (!autofill || !active) return
      signIn(true).catch((error: unknown) => {
        // A passkey chosen from the suggestions that the server then refuses: say why.
        const said = passkeyProblem(error)
        if (!active || said === null) return
        setBusy(false)
        setProblem(said)
      })
    })
    return () => {
      active = false
    }
  }, [])

  if (!supported.current) return null
  const onClick = async () => {
    setProblem(null)
    try {
      await signIn(false)
    } catch (error) {
      setBusy(false)
      setProblem(passkeyProblem(error))
    }
  }
  return (
    <div className="passkey-sign-in">
      <Notice tone="error">{problem}</Notice>
      <Button onClick={onClick} pending={busy} pendingLabel="Signing in…">
        Sign in with a passkey
      </Button>
    </div>
  )
}
