import { useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { useAction } from '../../app/http.js'
import { SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { PublicCard } from '../../ui/PublicCard.js'
import { isApiError } from '../errors/api-error.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkNewPassword } from '../forms/checks.js'
import { PASSWORD_MAX } from '../forms/limits.js'
import { PasswordRules } from '../password/PasswordRules.js'
import { resetPassword as sendNewPassword } from './auth.requests.js'

type Field = 'newPassword' | 'confirmPassword'

const BadLink = () => (
  <PublicCard
    title="This link does not work"
    after={
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    }
  >
    <Notice tone="error">
      The password reset link is not valid: it may have expired (links work for one hour) or been used
      already.
    </Notice>
    <p>
      <Link to="/forgot-password" className="button button-primary">
        Send me a new link
      </Link>
    </p>
  </PublicCard>
)

const checkRepeat = (repeat: string, password: string): string | null => {
  if (repeat === '') return 'Repeat the new password.'
  return repeat === password ? null : 'The two passwords are not the same.'
}

export const ResetPasswordPage = () => {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const token = params.get('token')
  const [resetPassword, { isLoading }] = useAction(sendNewPassword)
  const [newPassword, setNewPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [tokenRejected, setTokenRejected] = useState(false)

  if (params.has('error') || !token || tokenRejected) return <BadLink />

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({
      newPassword: checkNewPassword(newPassword),
      confirmPassword: checkRepeat(confirmPassword, newPassword),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await resetPassword({ newPassword, token })
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
        placeError<Field>(
          error,
          {
            PASSWORD_TOO_SHORT: 'newPassword',
            PASSWORD_TOO_LONG: 'newPassword',
            PASSWORD_COMPROMISED: 'newPassword',
            // The reset refuses the password the account has now, too.
            PASSWORD_SAME_AS_CURRENT: 'newPassword',
          },
          ['newPassword'],
        ),
      )
    }
  }

  return (
    <PublicCard title="Choose a new password" description="Pick a password you do not use anywhere else.">
      <Form label="Choose a new password" onSubmit={onSubmit} errors={errors} className="form-stretch">
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
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
          maxLength={PASSWORD_MAX}
          value={confirmPassword}
          onChange={setConfirmPassword}
          error={errors.fields.confirmPassword}
        />
        <SubmitButton pending={isLoading} pendingLabel="Saving…">
          Save new password
        </SubmitButton>
      </Form>
    </PublicCard>
  )
}
