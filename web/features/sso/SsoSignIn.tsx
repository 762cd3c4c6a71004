import { useEffect, useId, useRef, useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { type FormErrors, noErrors } from '../errors/form-errors.js'
import { goTo, ssoIdentifier, startSsoSignIn } from './sso.requests.js'
import { checkSsoIdentifier, ssoProblemFor } from './sso-messages.js'
import './sso.css'

type Field = 'identifier'

type Props = {
  /**
   * The address a password sign-in was just refused for because its organization requires SSO:
   * the form opens with it, under a notice saying why. Null otherwise.
   */
  required?: { email: string } | null
}

/**
 * "Sign in with SSO": a button that opens a small form (work email or organization short name) and
 * sends the browser on to the organization's identity provider.
 */
export const SsoSignIn = ({ required = null }: Props) => {
  const [open, setOpen] = useState(false)
  const [identifier, setIdentifier] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [busy, setBusy] = useState(false)
  const formId = useId()
  const fieldRef = useRef<HTMLInputElement>(null)
  // Bumped when the form opens for someone: once rendered, the field takes the focus (and the view).
  const [focusTick, setFocusTick] = useState(0)

  useEffect(() => {
    if (focusTick > 0) fieldRef.current?.focus()
  }, [focusTick])

  // A refused password sign-in hands over its address: the form opens ready to continue.
  useEffect(() => {
    if (required === null) return
    setIdentifier(required.email)
    setErrors(noErrors())
    setOpen(true)
    setFocusTick((tick) => tick + 1)
  }, [required])

  const toggle = () => {
    setOpen(!open)
    // Opened by a click, the field is where the person types next.
    if (!open) setFocusTick((tick) => tick + 1)
  }

  const onSubmit = async () => {
    if (busy) return
    const problem = checkSsoIdentifier(identifier)
    setErrors(problem ? { form: null, fields: { identifier: problem } } : noErrors())
    if (problem) return
    const asked = ssoIdentifier(identifier)
    setBusy(true)
    try {
      const { url } = await startSsoSignIn(asked)
      goTo(url)
    } catch (error) {
      setErrors({ form: ssoProblemFor(error, asked), fields: {} })
      setBusy(false)
    }
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
        ) : null}
      </div>
    </div>
  )
}
