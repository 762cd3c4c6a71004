import { useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { SubmitButton } from '../../ui/Button.js'
import { Checkbox, TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail, checkRequired } from '../forms/checks.js'
import { EMAIL_MAX } from '../forms/limits.js'
import { useRefreshSession } from '../session/use-session-actions.js'
import { useSignInMutation } from './auth.api.js'
import { emailFrom, noticeFrom, returnPathFrom } from './navigation-state.js'

type Field = 'email' | 'password'

export const SignInPage = () => {
  const location = useLocation()
  const navigate = useNavigate()
  const [signIn, { isLoading }] = useSignInMutation()
  const refreshSession = useRefreshSession()
  const [email, setEmail] = useState(emailFrom(location.state) ?? '')
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(true)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [busy, setBusy] = useState(false)

  const onSubmit = async () => {
    if (busy) return
    const problems = fieldErrors<Field>({
      email: checkEmail(email),
      password: checkRequired(password, 'your password'),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    setBusy(true)
    try {
      await signIn({ email: email.trim(), password, rememberMe }).unwrap()
      await refreshSession()
      navigate(returnPathFrom(location.state), { replace: true })
    } catch (error) {
      setErrors(placeError<Field>(error, { INVALID_EMAIL: 'email' }, ['email', 'password']))
      setBusy(false)
    }
  }

  return (
    <PublicCard
      title="Sign in"
      description="Welcome back. Sign in to manage your account."
      after={
        <p>
          New here? <Link to="/sign-up">Create an account</Link>
        </p>
      }
    >
      <Notice tone="success">{noticeFrom(location.state)}</Notice>
      <Form label="Sign in" onSubmit={onSubmit} errors={errors} className="form-stretch">
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          maxLength={EMAIL_MAX}
          value={email}
          onChange={setEmail}
          error={errors.fields.email}
        />
        <div className="field">
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={errors.fields.password}
          />
          <p className="small">
            <Link to="/forgot-password" state={email.trim() ? { email: email.trim() } : undefined}>
              Forgot your password?
            </Link>
          </p>
        </div>
        <Checkbox
          label="Remember me"
          name="rememberMe"
          checked={rememberMe}
          onChange={setRememberMe}
          hint="Stay signed in after closing the browser. Leave it off on a shared computer."
        />
        <SubmitButton pending={isLoading || busy} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </Form>
    </PublicCard>
  )
}
