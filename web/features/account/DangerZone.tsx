import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Checkbox, TextField, UsernameForPasswordManagers } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { type PortalConfig, usePortalConfig } from '../config/config.api.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import type { User } from '../session/session.api.js'
import { useForgetSession } from '../session/use-session-actions.js'
import { useDeleteUserMutation } from './account.api.js'
import type { DeletedState } from './GoodbyePage.js'

type Field = 'password' | 'confirmed'

// What happens on "Delete" depends on the server's configuration: say only what is true.
const whatHappens = (config: PortalConfig | undefined): string => {
  if (config?.deleteUser.immediate === true) return 'Your account is deleted as soon as you confirm.'
  if (config?.deleteUser.immediate === false)
    return 'We then email you a link; your account is deleted only when you open it.'
  return 'Depending on this service’s settings, your account is deleted at once or when you open a link we email you.'
}

const DeleteForm = ({ user, onCancel }: { user: User; onCancel: () => void }) => {
  const [deleteUser, { isLoading }] = useDeleteUserMutation()
  const forget = useForgetSession()
  const navigate = useNavigate()
  const config = usePortalConfig()
  const [password, setPassword] = useState('')
  const [confirmed, setConfirmed] = useState(false)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [mailSent, setMailSent] = useState(false)
  const passwordRef = useRef<HTMLInputElement>(null)

  // Opened by the button that is now gone: focus goes to the first thing to fill in.
  useEffect(() => passwordRef.current?.focus(), [])

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({
      password: checkRequired(password, 'your password to confirm'),
      confirmed: confirmed ? null : 'Tick the box to confirm that you want to delete your account.',
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      const answer = await deleteUser({ password }).unwrap()
      // The answer's message is the only thing telling an immediate deletion from a mailed link.
      if (answer.message === 'Verification email sent') {
        setMailSent(true)
        return
      }
      const state: DeletedState = { deleted: true }
      navigate('/goodbye', { replace: true, state })
      forget()
    } catch (error) {
      setErrors(placeError<Field>(error, { INVALID_PASSWORD: 'password' }, ['password']))
    }
  }

  if (mailSent) {
    return (
      <Notice tone="info" title="Check your mail.">
        We have sent a link to {user.email}. Your account is deleted only when you open it; until then nothing
        changes.
      </Notice>
    )
  }
  return (
    <Form label="Delete account" onSubmit={onSubmit} errors={errors}>
      <Notice tone="warning" live="none" title="This cannot be undone.">
        Deleting your account removes your profile and signs out every device. You will not be able to sign in
        with {user.email} again unless you create a new account. {whatHappens(config)}
      </Notice>
      <UsernameForPasswordManagers username={user.email} />
      <TextField
        label="Your password"
        name="deletePassword"
        inputRef={passwordRef}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        hint="To make sure it is you."
        error={errors.fields.password}
      />
      <Checkbox
        label="I understand that my account will be deleted for good"
        name="confirmDelete"
        checked={confirmed}
        onChange={setConfirmed}
        error={errors.fields.confirmed}
      />
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Deleting…" variant="danger">
          Delete my account
        </SubmitButton>
        <Button onClick={onCancel}>Cancel</Button>
      </FormActions>
    </Form>
  )
}

/** Deleting the account: set apart, in red, behind a first step that changes nothing. */
export const DangerZone = ({ user }: { user: User }) => {
  const config = usePortalConfig()
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const enabled = config?.deleteUser.enabled !== false

  return (
    <Card
      tone="danger"
      title="Danger zone"
      description="Deleting your account removes it and everything in it, for good."
    >
      {!enabled ? (
        <p>Deleting accounts is turned off on this service. Contact its support to close your account.</p>
      ) : open ? (
        <div>
          <DeleteForm
            user={user}
            onCancel={() => {
              setOpen(false)
              // The form is gone: give focus back to the button that opened it.
              requestAnimationFrame(() => toggle.current?.focus())
            }}
          />
        </div>
      ) : (
        <div className="danger-row">
          <div>
            <p>
              <strong>Delete this account</strong>
            </p>
            <p className="muted small">Your profile, sessions and history are removed.</p>
          </div>
          <Button ref={toggle} variant="danger-outline" onClick={() => setOpen(true)}>
            Delete account…
          </Button>
        </div>
      )}
    </Card>
  )
}
