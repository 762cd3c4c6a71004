import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { useTitle } from '../../app/use-title.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail } from '../forms/checks.js'
import { FormAlert, Notice, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import { useRequestPasswordResetMutation } from './auth.api.js'

type Field = 'email'

export const ForgotPasswordPage = () => {
  useTitle('Forgot password')
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation()
  const [email, setEmail] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [sentTo, setSentTo] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    const problems = fieldErrors<Field>({ email: checkEmail(email) })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await requestReset({ email: email.trim() }).unwrap()
      setSentTo(email.trim())
    } catch (error) {
      setErrors(placeError<Field>(error, { INVALID_EMAIL: 'email' }))
    }
  }

  if (sentTo !== null) {
    return (
      <>
        <h1>Check your mail</h1>
        {/* The server answers the same for unknown addresses, so this cannot say more either. */}
        <Notice>
          If an account uses <strong>{sentTo}</strong>, we have sent it a link to choose a new password. The
          link works for one hour.
        </Notice>
        <p className="links">
          <button type="button" className="button button-quiet" onClick={() => setSentTo(null)}>
            Use another address
          </button>
          <Link to="/sign-in">Back to sign in</Link>
        </p>
      </>
    )
  }

  return (
    <>
      <h1>Forgot your password?</h1>
      <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
      <form onSubmit={onSubmit} noValidate aria-label="Reset password">
        <FormAlert>{errors.form}</FormAlert>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={errors.fields.email}
        />
        <SubmitButton pending={isLoading} pendingLabel="Sending…">
          Send reset link
        </SubmitButton>
      </form>
      <p className="links">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </>
  )
}
