import { useState } from 'react'
import { SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail } from '../forms/checks.js'
import { EMAIL_MAX } from '../forms/limits.js'
import { useSendVerificationEmailMutation } from './verification.api.js'

type Props = {
  /** When known (just signed up, or signed in), the button sends straight to it. */
  email: string | null
  label?: string
  variant?: 'primary' | 'secondary'
  /** Nothing was mailed yet: the first send is "a link", only later ones "a new link". */
  first?: boolean
}

/** "Send me a new verification link", with the address asked for when the page does not know it. */
export const ResendVerification = ({
  email,
  label = 'Send a new link',
  variant = 'secondary',
  first = false,
}: Props) => {
  const [send, { isLoading }] = useSendVerificationEmailMutation()
  const [typed, setTyped] = useState('')
  const [errors, setErrors] = useState<FormErrors<'email'>>(noErrors())
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [sends, setSends] = useState(0)
  const address = email ?? typed.trim()

  const onSubmit = async () => {
    if (isLoading) return
    setSentTo(null)
    const problems = email === null ? fieldErrors<'email'>({ email: checkEmail(typed) }) : null
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await send({ email: address }).unwrap()
      setSentTo(address)
      setSends((count) => count + 1)
    } catch (error) {
      setErrors(placeError<'email'>(error, email === null ? { INVALID_EMAIL: 'email' } : {}, ['email']))
    }
  }

  return (
    <Form label="Send a new verification link" onSubmit={onSubmit} errors={errors}>
      {email === null ? (
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={EMAIL_MAX}
          value={typed}
          onChange={setTyped}
          error={errors.fields.email}
        />
      ) : null}
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Sending…" variant={variant}>
          {label}
        </SubmitButton>
      </FormActions>
      <Notice tone="success">
        {sentTo
          ? `We have sent ${first && sends === 1 ? 'a' : 'a new'} link to ${sentTo}. It works for one hour.`
          : null}
      </Notice>
    </Form>
  )
}
