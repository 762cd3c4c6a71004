import { useEffect, useRef, useState } from 'react'
import { SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { type FormErrors, noErrors } from '../errors/form-errors.js'
import { goTo, ssoIdentifier, startSsoSignIn } from './sso.requests.js'
import { checkSsoIdentifier, ssoProblemFor } from './sso-messages.js'

type Field = 'identifier'

type Props = {
  /** The address to start with (a password sign-in refused with SSO_REQUIRED), or ''. */
  initial: string
  /** Changes each time the form is opened for someone: the field then takes the focus. */
  focusTick: number
  /** On the OpenID provider's login page: the application's signed request, which goes on after. */
  oauthQuery?: string
}

/**
 * The "Sign in with SSO" form (work email or organization short name), loaded only once someone
 * opens it: it sends the browser on to the organization's identity provider.
 */
export const SsoSignInForm = ({ initial, focusTick, oauthQuery }: Props) => {
  const [identifier, setIdentifier] = useState(initial)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [busy, setBusy] = useState(false)
  const fieldRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    setIdentifier(initial)
    setErrors(noErrors())
  }, [initial])

  useEffect(() => {
    if (focusTick > 0) fieldRef.current?.focus()
  }, [focusTick])

  const onSubmit = async () => {
    if (busy) return
    const problem = checkSsoIdentifier(identifier)
    setErrors(problem ? { form: null, fields: { identifier: problem } } : noErrors())
    if (problem) return
    const asked = ssoIdentifier(identifier)
    setBusy(true)
    try {
      const { url } = await startSsoSignIn(asked, oauthQuery)
      goTo(url)
    } catch (error) {
      setErrors({ form: ssoProblemFor(error, asked), fields: {} })
      setBusy(false)
    }
  }

  return (
    <Form label="Sign in with SSO" onSubmit={onSubmit} errors={errors} className="form-stretch">
      <TextField
        label="Work email or organization"
        name="sso-identifier"
        autoComplete="email"
        autoCapitalize="none"
        hint="Your work address, like ada@acme.com, or your organization’s short name, like acme."
        value={identifier}
        onChange={setIdentifier}
        error={errors.fields.identifier}
        inputRef={fieldRef}
      />
      <SubmitButton pending={busy} pendingLabel="Opening your organization’s sign-in…">
        Continue with SSO
      </SubmitButton>
    </Form>
  )
}
