import { useState } from 'react'
import { Badge } from '../../ui/Badge.js'
import { SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { messageForCode } from '../errors/messages.js'
import { checkEmail } from '../forms/checks.js'
import { EMAIL_MAX } from '../forms/limits.js'
import type { User } from '../session/session.api.js'
import { ResendVerification } from '../verification/ResendVerification.js'
import { type PendingEmailChange, useChangeEmailMutation, usePendingEmailChange } from './account.api.js'

type Field = 'newEmail'

// What happens next depends on whether the current address was ever confirmed (spec §4).
const nextSteps = (user: User, newEmail: string): string =>
  user.emailVerified
    ? `To keep your account safe, we have sent a confirmation link to your current address, ${user.email}. ` +
      `Once you open it, we will send a link to ${newEmail} to verify the new address.`
    : `Your email address is now ${newEmail}. We have sent a link there to verify it.`

const checkNewEmail = (value: string, current: string): string | null =>
  checkEmail(value) ??
  (value.trim().toLowerCase() === current.toLowerCase() ? messageForCode('EMAIL_IS_THE_SAME') : null)

/** The change on its way, and whose mailbox holds the next step; stays until the change is done. */
const PendingChange = ({ change, user }: { change: PendingEmailChange; user: User }) => (
  <Notice tone="info" title={`Changing to ${change.newEmail}`} live="none">
    {change.step === 'confirm-current'
      ? `Next step: open the link we sent to your current address, ${user.email}, to approve the change.`
      : `Next step: open the link we sent to ${change.newEmail} to verify the new address.`}
  </Notice>
)

export const CurrentEmail = ({ user }: { user: User }) => (
  <Card
    title="Email address"
    description="Where we send the links that verify your address and reset your password."
  >
    <div className="email-row">
      <strong data-testid="current-email" className="email-address">
        {user.email}
      </strong>
      {user.emailVerified ? (
        <Badge tone="success">Verified</Badge>
      ) : (
        <Badge tone="warning">Not verified</Badge>
      )}
    </div>
    {user.emailVerified ? null : (
      <>
        <p className="muted small">Confirm this address so you can reset your password if you forget it.</p>
        <ResendVerification email={user.email} label="Send a verification link" />
      </>
    )}
  </Card>
)

export const EmailSection = ({ user }: { user: User }) => {
  const [changeEmail, { isLoading }] = useChangeEmailMutation()
  const pending = usePendingEmailChange()
  const [newEmail, setNewEmail] = useState('')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [done, setDone] = useState<string | null>(null)

  const onSubmit = async () => {
    if (isLoading) return
    setDone(null)
    const problems = fieldErrors<Field>({ newEmail: checkNewEmail(newEmail, user.email) })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      await changeEmail({ newEmail: newEmail.trim() }).unwrap()
      setDone(nextSteps(user, newEmail.trim()))
      setNewEmail('')
    } catch (error) {
      setErrors(
        placeError<Field>(
          error,
          {
            INVALID_EMAIL: 'newEmail',
            EMAIL_IS_THE_SAME: 'newEmail',
            USER_ALREADY_EXISTS: 'newEmail',
            USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'newEmail',
          },
          ['newEmail'],
        ),
      )
    }
  }

  return (
    <Card title="Change email address">
      {pending && !done ? <PendingChange change={pending} user={user} /> : null}
      <Form label="Change email" onSubmit={onSubmit} errors={errors}>
        <TextField
          label="New email address"
          name="newEmail"
          type="email"
          autoComplete="email"
          maxLength={EMAIL_MAX}
          value={newEmail}
          onChange={setNewEmail}
          error={errors.fields.newEmail}
        />
        <FormActions>
          <SubmitButton pending={isLoading} pendingLabel="Sending…">
            Change email
          </SubmitButton>
        </FormActions>
        <Notice tone="success">{done}</Notice>
      </Form>
    </Card>
  )
}
