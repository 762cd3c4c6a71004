import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { SubmitButton } from '../../ui/Button.js'
import { useBranding } from '../../ui/branding.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { type FormErrors, noErrors, placeError } from '../errors/form-errors.js'
import { oauthQueryOf, signInForClient } from './oauth.requests.js'

/// The OpenID provider's login page (`oauthProvider.loginPage`): the person signs in, and the
/// authorization the application asked for goes on where the answer says (consent, or back).

type Field = 'email' | 'password'

export const OAuthLoginPage = () => {
  const { productName } = useBranding()
  const location = useLocation()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [busy, setBusy] = useState(false)

  const onSubmit = async () => {
    if (busy) return
    setBusy(true)
    try {
      const answer = await signInForClient({
        email: email.trim(),
        password,
        oauth_query: oauthQueryOf(location.search),
      })
      if ('twoFactorRedirect' in answer) {
        // The second step keeps the signed request in its address and sends it with the code.
        navigate(`/two-factor${location.search}`, { state: answer })
        return
      }
      window.location.assign(answer.url)
    } catch (error) {
      setErrors(placeError<Field>(error, { INVALID_EMAIL_OR_PASSWORD: 'password' }, ['email', 'password']))
      setBusy(false)
    }
  }

  return (
    <PublicCard
      title="Sign in to continue"
      description={`An application asks you to sign in with your ${productName} account.`}
    >
      <Form label="Sign in" onSubmit={onSubmit} errors={errors} className="form-stretch">
        <TextField
          label="Email"
          name="email"
          autoComplete="username"
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
    </PublicCard>
  )
}
