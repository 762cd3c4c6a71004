import { useState } from 'react'
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router'
import { signedIn } from '../../app/session-events.js'
import { SubmitButton } from '../../ui/Button.js'
import { Checkbox, TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { isApiError } from '../errors/api-error.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail, checkRequired } from '../forms/checks.js'
import { PasskeySignIn } from '../passkeys/PasskeySignIn.js'
import { EmailCodeSignIn } from '../passwordless/EmailCodeSignIn.js'
import { EmailLinkSignIn } from '../passwordless/EmailLinkSignIn.js'
import { SocialButtons } from '../social/SocialButtons.js'
import { SsoSignIn } from '../sso/SsoSignIn.js'
import { isSsoRequired } from '../sso/sso.requests.js'
import { signInWithEmail, signInWithUsername } from './auth.requests.js'
import { ADD_ACCOUNT_PARAM, emailFrom, noticeFrom, returnPathFrom } from './navigation-state.js'

type Field = 'identifier' | 'password'

// One field for both: an address has an '@', a username never does.
const isEmail = (identifier: string) => identifier.includes('@')

const checkIdentifier = (identifier: string): string | null => {
  if (identifier.trim() === '') return 'Enter your email address or username.'
  return isEmail(identifier) ? checkEmail(identifier) : null
}

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_EMAIL: 'identifier',
  // Malformed usernames (422 on /sign-in/username).
  USERNAME_TOO_SHORT: 'identifier',
  USERNAME_TOO_LONG: 'identifier',
  INVALID_USERNAME: 'identifier',
}

/** The server names the request's field ('email' or 'username'); the form has one for both. */
const asIdentifier = (error: unknown): unknown =>
  isApiError(error) && (error.field === 'email' || error.field === 'username')
    ? { ...error, field: 'identifier' }
    : error

/**
 * Where a sign-in leads: the page that asked for it. An added account goes to the account, since the
 * page asked from belonged to the other one, except an invitation, which is for the account added.
 */
const afterSignIn = (adding: boolean, state: unknown): string => {
  const back = returnPathFrom(state)
  return adding && !back.startsWith('/accept-invitation/') ? '/account' : back
}

export const SignInPage = () => {
  const location = useLocation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  // Signed in already and adding another account to this device (the header's account switcher).
  const adding = params.has(ADD_ACCOUNT_PARAM)
  const [identifier, setIdentifier] = useState(emailFrom(location.state) ?? '')
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(true)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [busy, setBusy] = useState(false)
  // The notice that brought the person here ("You are signed out.") is stale once they try again.
  const [tried, setTried] = useState(false)
  // The address a password was refused for because its organization requires SSO.
  const [ssoFor, setSsoFor] = useState<{ email: string } | null>(null)

  const onSubmit = async () => {
    if (busy) return
    setTried(true)
    const problems = fieldErrors<Field>({
      identifier: checkIdentifier(identifier),
      password: checkRequired(password, 'your password'),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    setBusy(true)
    const name = identifier.trim()
    try {
      const answer = isEmail(name)
        ? await signInWithEmail({ email: name, password, rememberMe })
        : await signInWithUsername({ username: name, password, rememberMe })
      if (answer.twoFactorRedirect) {
        const { twoFactorMethods } = answer
        navigate('/two-factor', { state: { from: afterSignIn(adding, location.state), twoFactorMethods } })
        return
      }
      // Signing in while signed in adds an account: what the store cached was about the other one.
      signedIn()
      navigate(afterSignIn(adding, location.state), { replace: true })
    } catch (error) {
      // A new object each time, so a second refusal reopens the SSO form even for the same address.
      setSsoFor(isSsoRequired(error) ? { email: name } : null)
      const placed = placeError<Field>(asIdentifier(error), FIELD_OF_CODE, ['identifier', 'password'])
      setErrors(isSsoRequired(error) ? noErrors() : placed)
      setBusy(false)
    }
  }

  const trimmed = identifier.trim()
  return (
    <PublicCard
      title={adding ? 'Add another account' : 'Sign in'}
      description={
        adding
          ? 'Sign in with another account. You stay signed in to your other accounts and can switch between them from the menu at the top.'
          : 'Welcome back. Sign in to manage your account.'
      }
      after={
        adding ? (
          <p>
            <Link to="/account">Back to your account</Link>
          </p>
        ) : (
          <p>
            New here?{' '}
            <Link to="/sign-up" state={location.state}>
              Create an account
            </Link>
          </p>
        )
      }
    >
      <Notice tone="success">{tried ? null : noticeFrom(location.state)}</Notice>
      {adding ? null : <SocialButtons returnTo={returnPathFrom(location.state)} />}
      {adding ? null : <PasskeySignIn returnTo={returnPathFrom(location.state)} />}
      <Form label="Sign in" onSubmit={onSubmit} errors={errors} className="form-stretch">
        <TextField
          label="Email or username"
          name="identifier"
          autoComplete="username webauthn"
          autoCapitalize="none"
          value={identifier}
          onChange={setIdentifier}
          error={errors.fields.identifier}
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
          {adding ? null : (
            <p className="small">
              <Link to="/forgot-password" state={isEmail(trimmed) ? { email: trimmed } : undefined}>
                Forgot your password?
              </Link>
            </p>
          )}
        </div>
        <Checkbox
          label="Remember me"
          name="rememberMe"
          checked={rememberMe}
          onChange={setRememberMe}
          hint="Stay signed in after closing the browser. Leave it off on a shared computer."
        />
        <SubmitButton pending={busy} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </Form>
      {adding ? null : <SsoSignIn required={ssoFor} />}
      {adding ? null : <EmailLinkSignIn email={trimmed} returnTo={returnPathFrom(location.state)} />}
      {adding ? null : <EmailCodeSignIn email={trimmed} returnTo={returnPathFrom(location.state)} />}
    </PublicCard>
  )
}
