import { useState } from 'react'
import { SubmitButton } from '../../ui/Button.js'
import { Checkbox, TextField, UsernameForPasswordManagers } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { messageForCode } from '../errors/messages.js'
import { checkNewPassword, checkRequired } from '../forms/checks.js'
import { PASSWORD_MAX } from '../forms/limits.js'
import { PasswordRules } from '../password/PasswordRules.js'
import { useChangePasswordMutation } from './account.api.js'

type Field = 'currentPassword' | 'newPassword'

// The server refuses it too (PASSWORD_SAME_AS_CURRENT); saying so before the round trip is kinder.
const checkDifferent = (current: string, next: string): string | null =>
  current !== '' && current === next ? messageForCode('PASSWORD_SAME_AS_CURRENT') : null

export const ChangePasswordForm = ({ email }: { email: string }) => {
  const [changePassword, { isLoading }] = useChangePasswordMutation()
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [revokeOtherSessions, setRevokeOtherSessions] = useState(true)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async () => {
    if (isLoading) return
    setDone(null)
    const problems = fieldErrors<Field>({
      currentPassword: checkRequired(currentPassword, 'your current password'),
      newPassword: checkNewPassword(newPassword) ?? checkDifferent(currentPassword, newPassword),
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
        placeError<Field>(
          error,
          {
            INVALID_PASSWORD: 'currentPassword',
            PASSWORD_TOO_SHORT: 'newPassword',
            PASSWORD_TOO_LONG: 'newPassword',
            PASSWORD_COMPROMISED: 'newPassword',
            PASSWORD_SAME_AS_CURRENT: 'newPassword',
          },
          ['currentPassword', 'newPassword'],
        ),
      )
    }
  }

  return (
    <Form label="Change password" onSubmit={onSubmit} errors={errors}>
      <UsernameForPasswordManagers username={email} />
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
        maxLength={PASSWORD_MAX}
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
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Changing password…">
          Change password
        </SubmitButton>
      </FormActions>
      <Notice tone="success">{done}</Notice>
    </Form>
  )
}
