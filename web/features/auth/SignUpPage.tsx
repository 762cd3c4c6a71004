import { type FormEvent, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useTitle } from '../../app/use-title.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail, checkNewPassword, checkRequired } from '../forms/checks.js'
import { FormAlert, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import { PasswordRules } from '../password/PasswordRules.js'
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
  useTitle('Create an account')
  const navigate = useNavigate()
  const [signUp, { isLoading }] = useSignUpMutation()
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
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
      await signUp({ name: name.trim(), email: address, password, callbackURL: '/email-verified' }).unwrap()
      navigate('/check-email', { state: { email: address } })
    } catch (error) {
      setErrors(placeError(error, FIELD_OF_CODE))
    }
  }

  return (
    <>
      <h1>Create an account</h1>
      <form onSubmit={onSubmit} noValidate aria-label="Create an account">
        <FormAlert>{errors.form}</FormAlert>
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          value={name}
          onChange={setName}
          error={errors.fields.name}
        />
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
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          hint={<PasswordRules password={password} />}
          error={errors.fields.password}
        />
        <SubmitButton pending={isLoading} pendingLabel="Creating your account…">
          Create account
        </SubmitButton>
      </form>
      <p className="links">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </>
  )
}
