import { useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { type FormErrors, fieldErrors, noErrors } from '../errors/form-errors.js'
import { checkRequired } from '../forms/checks.js'
import { placeOrganizationError } from './organization-messages.js'

export const TEAM_NAME_MAX = 100

type Field = 'name'

const FIELD_OF_CODE: Partial<Record<string, Field>> = { TEAM_ALREADY_EXISTS: 'name' }

/** One form for both: a new team's name, or a new name for a team. */
export const TeamNameForm = ({
  label,
  submitLabel,
  initial = '',
  onSave,
  onCancel,
}: {
  label: string
  submitLabel: string
  initial?: string
  onSave: (name: string) => Promise<unknown>
  onCancel?: () => void
}) => {
  const [name, setName] = useState(initial)
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const onSubmit = async () => {
    if (busy) return
    const problems = fieldErrors<Field>({ name: checkRequired(name, 'a name for the team') })
    setErrors(problems ?? noErrors())
    if (problems) return
    setBusy(true)
    try {
      await onSave(name.trim())
      setName(initial === '' ? '' : name.trim())
    } catch (error) {
      setErrors(placeOrganizationError<Field>(error, FIELD_OF_CODE, ['name']))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Form label={label} onSubmit={onSubmit} errors={errors}>
      <div className="inline-form">
        <TextField
          label="Team name"
          name="name"
          maxLength={TEAM_NAME_MAX}
          value={name}
          onChange={setName}
          error={errors.fields.name}
        />
        <FormActions>
          <SubmitButton pending={busy} pendingLabel="Saving…">
            {submitLabel}
          </SubmitButton>
          {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        </FormActions>
      </div>
    </Form>
  )
}
