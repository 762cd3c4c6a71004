import { type FormEvent, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { useTitle } from '../../app/use-title.js'
import { isApiError } from '../errors/api-error.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkNewPassword } from '../forms/checks.js'
import { FormAlert, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import { PasswordRules } from '../password/PasswordRules.js'
import { useResetPasswordMutation } from './auth.api.js'

type Field = 'newPassword' | 'confirmPassword'

const BadLink = () => (
  <>
    <h1>This link does not work</h1>
    <div role="alert" className="alert alert-error">
      The password reset link is not valid: it may have expired (links work for one hour) or been used
      already.
    </div>
    <p className="links">
      <Link to="/forgot-password">Send me a new link</Link>
      <Link to="/sign-in">Back to sign in</Link>
    </p>
  </>
)

export const ResetPasswordPage = () => {
  useTitle('Choose a new password')
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const token = params.get('token')
  const [resetPassword, { isLoading }] = useResetPasswordMutation()
  const [newPassword, setNewPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [tokenRejected, setTokenRejected] = useState(false)

  if (params.has('error') || !token || tokenRejected) return <BadLink />

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    const problems = fieldErrors<Field>({
      newPassword: checkNewPassword(newPassword),
      confirmPassword: confirmPassword === newPassword ? null : 'The two passwords are not the same.',
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await resetPassword({ newPassword, token }).unwrap()
      navigate('/sign-in', {
        replace: true,
        state: { notice: 'Your password has been changed. Sign in with your new password.' },
      })
    } catch (error) {
      if (isApiError(error) && (error.code === 'INVALID_TOKEN' || error.code === 'TOKEN_EXPIRED')) {
        setTokenRejected(true)
        return
      }
      setErrors(
        placeError<Field>(error, { PASSWORD_TOO_SHORT: 'newPassword', PASSWORD_TOO_LONG: 'newPassword' }),
      )
    }
  }

  return (
    <>
      <h1>Choose a new password</h1>
      <form onSubmit={onSubmit} noValidate aria-label="Choose a new password">
        <FormAlert>{errors.form}</FormAlert>
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={setNewPassword}
          hint={<PasswordRules password={newPassword} />}
          error={errors.fields.newPassword}
        />
        <TextField
          label="Repeat the new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          error={errors.fields.confirmPassword}
        />
        <SubmitButton pending={isLoading} pendingLabel="Saving…">
          Save new password
        </SubmitButton>
      </form>
    </>
  )
}
