import { useState } from 'react'
import { Link, useLocation } from 'react-router'
import { useAction } from '../../app/http.js'
import { Button, SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail } from '../forms/checks.js'
import { EMAIL_MAX } from '../forms/limits.js'
import { requestPasswordReset } from './auth.requests.js'
import { emailFrom } from './navigation-state.js'

type Field = 'email'

const BackToSignIn = () => (
  <p>
    <Link to="/sign-in">Back to sign in</Link>
  </p>
)

export const ForgotPasswordPage = () => {
  const [requestReset, { isLoading }] = useAction(requestPasswordReset)
  const [email, setEmail] = useState(emailFrom(useLocation().state) ?? '')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [sentTo, setSentTo] = useState<string | null>(null)

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({ email: checkEmail(email) })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await requestReset({ email: email.trim() })
      setSentTo(email.trim())
    } catch (error) {
      setErrors(placeError<Field>(error, { INVALID_EMAIL: 'email' }, ['email']))
    }
  }

  if (sentTo !== null) {
    return (
      <PublicCard title="Check your mail" after={<BackToSignIn />}>
        {/* The server answers the same for unknown addresses, so this cannot say more either. */}
        <Notice tone="success">
          If an account uses <strong>{sentTo}</strong>, we have sent it a link to choose a new password. The
          link works for one hour.
        </Notice>
        <p className="muted small">No mail after a few minutes? Look in your spam folder, or try again.</p>
        <div>
          <Button onClick={() => setSentTo(null)}>Use another address</Button>
        </div>
      </PublicCard>
    )
  }

  return (
    <PublicCard
      title="Forgot your password?"
      documentTitle="Forgot password"
      description="Enter the email address of your account and we will send you a link to choose a new password."
      after={<BackToSignIn />}
    >
      <Form label="Reset password" onSubmit={onSubmit} errors={errors} className="form-stretch">
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={EMAIL_MAX}
          value={email}
          onChange={setEmail}
          error={errors.fields.email}
        />
        <SubmitButton pending={isLoading} pendingLabel="Sending…">
          Send reset link
        </SubmitButton>
      </Form>
    </PublicCard>
  )
}
