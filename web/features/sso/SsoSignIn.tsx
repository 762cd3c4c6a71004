import { lazy, Suspense, useEffect, useId, useState } from 'react'
import { Button } from '../../ui/Button.js'
import { Notice } from '../../ui/Notice.js'
import './sso.css'

// Few people sign in through SSO: the form's code loads when it is opened, which keeps the first
// page's script within its budget (tests/e2e/portal.e2e.spec.ts).
const SsoSignInForm = lazy(async () => ({ default: (await import('./SsoSignInForm.js')).SsoSignInForm }))

type Props = {
  /**
   * The address a password sign-in was just refused for because its organization requires SSO:
   * the form opens with it, under a notice saying why. Null otherwise.
   */
  required?: { email: string } | null
  /** On the OpenID provider's login page: the application's signed request, which goes on after. */
  oauthQuery?: string
}

/**
 * "Sign in with SSO": a button that opens a small form (work email or organization short name) and
 * sends the browser on to the organization's identity provider.
 */
export const SsoSignIn = ({ required = null, oauthQuery }: Props) => {
  const [open, setOpen] = useState(false)
  const formId = useId()
  // Bumped when the form opens for someone: once rendered, its field takes the focus (and the view).
  const [focusTick, setFocusTick] = useState(0)

  // A refused password sign-in hands over its address: the form opens ready to continue.
  useEffect(() => {
    if (required === null) return
    setOpen(true)
    setFocusTick((tick) => tick + 1)
  }, [required])

  const toggle = () => {
    setOpen(!open)
    // Opened by a click, the field is where the person types next.
    if (!open) setFocusTick((tick) => tick + 1)
  }

  return (
    <div className="sso-sign-in">
      {required === null ? null : (
        <Notice tone="info" title="Your organization signs you in through SSO">
          Continue with your organization’s sign-in page instead of a password.
        </Notice>
      )}
      <Button onClick={toggle} aria-expanded={open} aria-controls={formId}>
        Sign in with SSO
      </Button>
      <div id={formId} hidden={!open}>
        {open ? (
          <Suspense fallback={null}>
            <SsoSignInForm initial={required?.email ?? ''} focusTick={focusTick} oauthQuery={oauthQuery} />
          </Suspense>
        ) : null}
      </div>
    </div>
  )
}
