import { type FormEvent, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { useTitle } from '../../app/use-title.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { Checkbox } from '../forms/Checkbox.js'
import { checkEmail, checkRequired } from '../forms/checks.js'
import { FormAlert, Notice, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import { useRefreshSession } from '../session/use-session-actions.js'
import { useSignInMutation } from './auth.api.js'
import { emailFrom, noticeFrom, returnPathFrom } from './navigation-state.js'

type Field = 'email' | 'password'

export const SignInPage = () => {
  useTitle('Sign in')
  const location = useLocation()
  const navigate = useNavigate()
  const [signIn, { isLoading }] = useSignInMutation()
  const refreshSession = useRefreshSession()
  const [email, setEmail] = useState(emailFrom(location.state) ?? '')
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(true)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
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
      setErrors(placeError<Field>(error, { INVALID_EMAIL: 'email' }))
      setBusy(false)
    }
  }

  const pending = isLoading || busy
  return (
    <>
      <h1>Sign in</h1>
      <Notice>{noticeFrom(location.state)}</Notice>
      <form onSubmit={onSubmit} noValidate aria-label="Sign in">
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
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.fields.password}
        />
        <Checkbox
          label="Remember me"
          name="rememberMe"
          checked={rememberMe}
          onChange={setRememberMe}
          hint="Stay signed in after closing the browser. Leave it off on a shared computer."
        />
        <SubmitButton pending={pending} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      <p className="links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/sign-up">Create an account</Link>
      </p>
    </>
  )
}
