import { useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { useAction } from '../../app/http.js'
import { signedIn } from '../../app/session-events.js'
import { SubmitButton } from '../../ui/Button.js'
import { useBranding } from '../../ui/branding.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail, checkNewPassword, checkRequired } from '../forms/checks.js'
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX } from '../forms/limits.js'
import { PasswordRules } from '../password/PasswordRules.js'
import { SocialButtons } from '../social/SocialButtons.js'
import { checkUsername, UsernameField } from '../username/UsernameField.js'
import { VERIFIED_CALLBACK } from '../verification/verification.api.js'
import { signUp as sendSignUp } from './auth.requests.js'
import { emailFrom, returnPathFrom } from './navigation-state.js'

type Field = 'name' | 'email' | 'username' | 'password'

const hasReturnPath = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && typeof Reflect.get(state, 'from') === 'string'

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_EMAIL: 'email',
  USER_ALREADY_EXISTS: 'email',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
  PASSWORD_COMPROMISED: 'password',
  USERNAME_TOO_SHORT: 'username',
  USERNAME_TOO_LONG: 'username',
  INVALID_USERNAME: 'username',
  USERNAME_IS_ALREADY_TAKEN: 'username',
}

export const SignUpPage = () => {
  const { productName } = useBranding()
  const navigate = useNavigate()
  const location = useLocation()
  // Sent here by a page that needs an account (an invitation): its address, and where to go back.
  const back = hasReturnPath(location.state) ? returnPathFrom(location.state) : null
  const [signUp, { isLoading }] = useAction(sendSignUp)
  const [name, setName] = useState('')
  const [email, setEmail] = useState(emailFrom(location.state) ?? '')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({
      name: checkRequired(name, 'your name'),
      email: checkEmail(email),
      username: checkUsername(username),
      password: checkNewPassword(password),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      const address = email.trim()
      const handle = username.trim()
      const answer = await signUp({
        name: name.trim(),
        email: address,
        password,
        callbackURL: VERIFIED_CALLBACK,
        // Stored lowercased; shown as typed.
        ...(handle ? { username: handle, displayUsername: handle } : {}),
      })
      // Sign-up signs in (autoSignIn): a store loaded earlier forgets the signed-out state it cached.
      signedIn()
      // Back to the page that sent the person here (signed in now), or on to verify the address.
      if (back) navigate(back, { replace: true })
      else navigate('/check-email', { state: { email: address, signedIn: answer.token !== null } })
    } catch (error) {
      setErrors(placeError(error, FIELD_OF_CODE, ['name', 'email', 'username', 'password']))
    }
  }

  return (
    <PublicCard
      title="Create your account"
      documentTitle="Create an account"
      description={`One account for every application that uses ${productName}.`}
      after={
        <p>
          Already have an account?{' '}
          <Link to="/sign-in" state={location.state}>
            Sign in
          </Link>
        </p>
      }
    >
      <SocialButtons returnTo={returnPathFrom(location.state)} />
      <Form label="Create an account" onSubmit={onSubmit} errors={errors} className="form-stretch">
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          maxLength={NAME_MAX}
          value={name}
          onChange={setName}
          error={errors.fields.name}
        />
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
        <UsernameField
          optional
          value={username}
          onChange={setUsername}
          error={errors.fields.username}
          hint="Lets you sign in without typing your email."
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          value={password}
          onChange={setPassword}
          hint={<PasswordRules password={password} />}
          error={errors.fields.password}
        />
        <SubmitButton pending={isLoading} pendingLabel="Creating your account…">
          Create account
        </SubmitButton>
      </Form>
    </PublicCard>
  )
}
