import { type FormEvent, useState } from 'react'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail } from '../forms/checks.js'
import { FormAlert, Notice, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import { useSendVerificationEmailMutation } from './verification.api.js'

type Props = {
  /** When known (just signed up, or signed in), the button sends straight to it. */
  email: string | null
  label?: string
}

/** "Send me a new verification link", with the address asked for when the page does not know it. */
export const ResendVerification = ({ email, label = 'Send a new link' }: Props) => {
  const [send, { isLoading }] = useSendVerificationEmailMutation()
  const [typed, setTyped] = useState('')
  const [errors, setErrors] = useState<FormErrors<'email'>>(noErrors())
  const [sentTo, setSentTo] = useState<string | null>(null)
  const address = email ?? typed.trim()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    setSentTo(null)
    const problems = email === null ? fieldErrors<'email'>({ email: checkEmail(typed) }) : null
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await send({ email: address }).unwrap()
      setSentTo(address)
    } catch (error) {
      setErrors(placeError<'email'>(error, email === null ? { INVALID_EMAIL: 'email' } : {}))
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Send a new verification link" className="inline-form">
      <FormAlert>{errors.form}</FormAlert>
      {email === null ? (
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={typed}
          onChange={setTyped}
          error={errors.fields.email}
        />
      ) : null}
      <SubmitButton pending={isLoading} pendingLabel="Sending…">
        {label}
      </SubmitButton>
      <Notice>{sentTo ? `We have sent a new link to ${sentTo}. It works for one hour.` : null}</Notice>
    </form>
  )
}
