import { type FormEvent, useState } from 'react'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkEmail } from '../forms/checks.js'
import { FormAlert, Notice, SubmitButton } from '../forms/Feedback.js'
import { TextField } from '../forms/TextField.js'
import type { User } from '../session/session.api.js'
import { ResendVerification } from '../verification/ResendVerification.js'
import { useChangeEmailMutation } from './account.api.js'

type Field = 'newEmail'

// What happens next depends on whether the current address was ever confirmed (spec §4).
const nextSteps = (user: User, newEmail: string): string =>
  user.emailVerified
    ? `To keep your account safe, we have sent a confirmation link to your current address, ${user.email}. ` +
      `Once you open it, we will send a link to ${newEmail} to verify the new address.`
    : `Your email address is now ${newEmail}. We have sent a link there to verify it.`

export const EmailSection = ({ user }: { user: User }) => {
  const [changeEmail, { isLoading }] = useChangeEmailMutation()
  const [newEmail, setNewEmail] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    setDone(null)
    const problems = fieldErrors<Field>({ newEmail: checkEmail(newEmail) })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await changeEmail({ newEmail: newEmail.trim() }).unwrap()
      setDone(nextSteps(user, newEmail.trim()))
      setNewEmail('')
    } catch (error) {
      setErrors(
        placeError<Field>(error, {
          INVALID_EMAIL: 'newEmail',
          EMAIL_IS_THE_SAME: 'newEmail',
          USER_ALREADY_EXISTS: 'newEmail',
          USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'newEmail',
        }),
      )
    }
  }

  return (
    <>
      <p>
        Your email address is <strong data-testid="current-email">{user.email}</strong>{' '}
        {user.emailVerified ? (
          <span className="badge badge-good">Verified</span>
        ) : (
          <span className="badge badge-warn">Not verified</span>
        )}
      </p>
      {user.emailVerified ? null : <ResendVerification email={user.email} label="Send a verification link" />}
      <form onSubmit={onSubmit} noValidate aria-label="Change email">
        <FormAlert>{errors.form}</FormAlert>
        <TextField
          label="New email address"
          name="newEmail"
          type="email"
          autoComplete="email"
          value={newEmail}
          onChange={setNewEmail}
          error={errors.fields.newEmail}
        />
        <SubmitButton pending={isLoading} pendingLabel="Sending…">
          Change email
        </SubmitButton>
        <Notice>{done}</Notice>
      </form>
    </>
  )
}
