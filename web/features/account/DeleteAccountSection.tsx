import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { Checkbox } from '../forms/Checkbox.js'
import { FormAlert, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import type { User } from '../session/session.api.js'
import { useForgetSession } from '../session/use-session-actions.js'
import { useDeleteUserMutation } from './account.api.js'

type Field = 'password' | 'confirmed'

const CheckYourMail = ({ email }: { email: string }) => (
  <div role="status" className="alert alert-info">
    <strong>Check your mail.</strong> We have sent a link to {email}. Your account is deleted only when you
    open it; until then nothing changes.
  </div>
)

export const DeleteAccountSection = ({ user }: { user: User }) => {
  const [deleteUser, { isLoading }] = useDeleteUserMutation()
  const forget = useForgetSession()
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [confirmed, setConfirmed] = useState(false)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [mailSent, setMailSent] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    const problems = fieldErrors<Field>({
      confirmed: confirmed ? null : 'Tick the box to confirm that you want to delete your account.',
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      const answer = await deleteUser(password === '' ? {} : { password }).unwrap()
      // The answer's message is the only thing telling an immediate deletion from a mailed link.
      if (answer.message === 'Verification email sent') {
        setMailSent(true)
        return
      }
      navigate('/goodbye', { replace: true })
      forget()
    } catch (error) {
      setErrors(placeError<Field>(error, { INVALID_PASSWORD: 'password' }))
    }
  }

  if (mailSent) return <CheckYourMail email={user.email} />
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Delete account" className="danger-zone">
      <div className="alert alert-warn">
        <strong>This cannot be undone.</strong> Deleting your account removes your profile and signs out every
        device. You will not be able to sign in with {user.email} again unless you create a new account.
      </div>
      <FormAlert>{errors.form}</FormAlert>
      <TextField
        label="Password (optional)"
        name="deletePassword"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        hint="With your password the account is deleted at once. Without it, we email you a link to confirm."
        error={errors.fields.password}
      />
      <Checkbox
        label="I understand that my account will be deleted for good"
        name="confirmDelete"
        checked={confirmed}
        onChange={setConfirmed}
      />
      {errors.fields.confirmed ? <p className="field-error">{errors.fields.confirmed}</p> : null}
      <SubmitButton pending={isLoading} pendingLabel="Deleting…" variant="danger">
        Delete my account
      </SubmitButton>
    </form>
  )
}
