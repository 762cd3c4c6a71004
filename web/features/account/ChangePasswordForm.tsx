import { type FormEvent, useState } from 'react'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { Checkbox } from '../forms/Checkbox.js'
import { checkNewPassword, checkRequired } from '../forms/checks.js'
import { FormAlert, Notice, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import { PasswordRules } from '../password/PasswordRules.js'
import { useChangePasswordMutation } from './account.api.js'

type Field = 'currentPassword' | 'newPassword'

export const ChangePasswordForm = () => {
  const [changePassword, { isLoading }] = useChangePasswordMutation()
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [revokeOtherSessions, setRevokeOtherSessions] = useState(true)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    setDone(null)
    const problems = fieldErrors<Field>({
      currentPassword: checkRequired(currentPassword, 'your current password'),
      newPassword: checkNewPassword(newPassword),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await changePassword({ currentPassword, newPassword, revokeOtherSessions }).unwrap()
      setCurrentPassword('')
      setNewPassword('')
      setDone(
        revokeOtherSessions
          ? 'Your password is changed, and your other devices are signed out.'
          : 'Your password is changed.',
      )
    } catch (error) {
      setErrors(
        placeError<Field>(error, {
          INVALID_PASSWORD: 'currentPassword',
          PASSWORD_TOO_SHORT: 'newPassword',
          PASSWORD_TOO_LONG: 'newPassword',
        }),
      )
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password">
      <FormAlert>{errors.form}</FormAlert>
      <TextField
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={setCurrentPassword}
        error={errors.fields.currentPassword}
      />
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
      <Checkbox
        label="Sign out my other devices"
        name="revokeOtherSessions"
        checked={revokeOtherSessions}
        onChange={setRevokeOtherSessions}
        hint="Recommended if you think someone else knows your old password."
      />
      <SubmitButton pending={isLoading} pendingLabel="Changing password…">
        Change password
      </SubmitButton>
      <Notice>{done}</Notice>
    </form>
  )
}
