import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail, checkNewPassword, checkRequired } from '../forms/checks.js'
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX } from '../forms/limits.js'
import { PasswordRules } from '../password/PasswordRules.js'
import { VERIFIED_CALLBACK } from '../verification/verification.api.js'
import { useSignUpMutation } from './auth.api.js'

type Field = 'name' | 'email' | 'password'

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_EMAIL: 'email',
  USER_ALREADY_EXISTS: 'email',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
}

export const SignUpPage = () => {
  const navigate = useNavigate()
  const [signUp, { isLoading }] = useSignUpMutation()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({
      name: checkRequired(name, 'your name'),
      email: checkEmail(email),
      password: checkNewPassword(password),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      const address = email.trim()
      await signUp({ name: name.trim(), email: address, password, callbackURL: VERIFIED_CALLBACK }).unwrap()
      navigate('/check-email', { state: { email: address } })
    } catch (error) {
      setErrors(placeError(error, FIELD_OF_CODE, ['name', 'email', 'password']))
    }
  }

  return (
    <PublicCard
      title="Create your account"
      documentTitle="Create an account"
      description="One account for every application that uses Tessera."
      after={
        <p>
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      }
    >
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
