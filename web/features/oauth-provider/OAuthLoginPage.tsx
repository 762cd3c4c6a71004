import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { SubmitButton } from '../../ui/Button.js'
import { useBranding } from '../../ui/branding.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { type FormErrors, noErrors, placeError } from '../errors/form-errors.js'
import { PasskeySignIn } from '../passkeys/PasskeySignIn.js'
import { EmailCodeSignIn } from '../passwordless/EmailCodeSignIn.js'
import { EmailLinkSignIn } from '../passwordless/EmailLinkSignIn.js'
import { SocialButtons } from '../social/SocialButtons.js'
import { SsoSignIn } from '../sso/SsoSignIn.js'
import { isSsoRequired } from '../sso/sso.requests.js'
import { oauthQueryOf, signInForClient } from './oauth.requests.js'

/// The OpenID provider's login page (`oauthProvider.loginPage`): the person signs in any way the
/// portal's sign-in page offers (a social provider, a passkey, a password, SSO, a mailed link or
/// code), each carrying the application's signed request, and the authorization goes on where the
/// answer says (consent, or back to the application).

type Field = 'email' | 'password'

/** Where the portal goes should a way in not carry the request (it always does here). */
const PORTAL_HOME = '/account'

export const OAuthLoginPage = () => {
  const { productName } = useBranding()
  const location = useLocation()
  const navigate = useNavigate()
  const oauthQuery = oauthQueryOf(location.search)
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [busy, setBusy] = useState(false)
  // The address a password was refused for because its organization requires SSO.
  const [ssoFor, setSsoFor] = useState<{ email: string } | null>(null)

  const onSubmit = async () => {
    if (busy) return
    setBusy(true)
    try {
      const answer = await signInForClient({ email: email.trim(), password, oauth_query: oauthQuery })
      if ('twoFactorRedirect' in answer) {
        // The second step keeps the signed request in its address and sends it with the code.
        navigate(`/two-factor?${oauthQuery}`, { state: answer })
        return
      }
      window.location.assign(answer.url)
    } catch (error) {
      setSsoFor(isSsoRequired(error) ? { email: email.trim() } : null)
      const placed = placeError<Field>(error, { INVALID_EMAIL_OR_PASSWORD: 'password' }, [
        'email',
        'password',
      ])
      setErrors(isSsoRequired(error) ? noErrors() : placed)
      setBusy(false)
    }
  }

  return (
    <PublicCard
      title="Sign in to continue"
      description={`An application asks you to sign in with your ${productName} account.`}
    >
      <SocialButtons returnTo={PORTAL_HOME} oauthQuery={oauthQuery} />
      <PasskeySignIn returnTo={PORTAL_HOME} oauthQuery={oauthQuery} />
      <Form label="Sign in" onSubmit={onSubmit} errors={errors} className="form-stretch">
        <TextField
          label="Email"
          name="email"
          autoComplete="username webauthn"
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
        <SubmitButton pending={busy} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </Form>
      <SsoSignIn required={ssoFor} oauthQuery={oauthQuery} />
      <EmailLinkSignIn email={email.trim()} returnTo={PORTAL_HOME} oauthQuery={oauthQuery} />
      <EmailCodeSignIn email={email.trim()} returnTo={PORTAL_HOME} oauthQuery={oauthQuery} />
    </PublicCard>
  )
}
