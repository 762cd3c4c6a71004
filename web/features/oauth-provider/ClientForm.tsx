import { useId, useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { Checkbox, SelectField, TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { type FormErrors, noErrors } from '../errors/form-errors.js'
import { type ClientFields, urisOf } from './oauth-clients.requests.js'

type Field = 'client_name' | 'redirect_uris'
export type ClientDraft = ClientFields & { confidential: boolean }

type Props = {
  label: string
  initial: ClientDraft
  /** A new client chooses public or confidential; an existing one cannot change it. */
  choosesKind: boolean
  /** Whether the form offers "trusted" (skip consent): only operators may grant it. */
  offersTrust?: boolean
  submitLabel: string
  onSubmit: (draft: ClientDraft) => Promise<void>
  onCancel?: () => void
}

/** A client's name, redirect URIs (one a line), kind, and whether it is trusted (skips consent). */
export const ClientForm = ({
  label,
  initial,
  choosesKind,
  offersTrust = true,
  submitLabel,
  onSubmit,
  onCancel,
}: Props) => {
  const [name, setName] = useState(initial.client_name)
  const [uris, setUris] = useState(initial.redirect_uris.join('\n'))
  const [kind, setKind] = useState<'confidential' | 'public'>(
    initial.confidential ? 'confidential' : 'public',
  )
  const [trusted, setTrusted] = useState(initial.skip_consent)
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [pending, setPending] = useState(false)
  const urisId = useId()

  const submit = async () => {
    const redirects = urisOf(uris)
    const fields: FormErrors<Field>['fields'] = {}
    if (name.trim() === '') fields.client_name = 'Give the application a name people will recognise.'
    if (redirects.length === 0) fields.redirect_uris = 'Add at least one redirect URI.'
    if (Object.keys(fields).length > 0) return setErrors({ form: null, fields })
    setPending(true)
    setErrors(noErrors())
    try {
      await onSubmit({
        client_name: name.trim(),
        redirect_uris: redirects,
        skip_consent: trusted,
        confidential: kind === 'confidential',
      })
    } catch (error) {
      setErrors({ form: error instanceof Error ? error.message : String(error), fields: {} })
    } finally {
      setPending(false)
    }
  }

  return (
    <Form label={label} onSubmit={submit} errors={errors}>
      <TextField
        label="Name"
        name="client_name"
        value={name}
        onChange={setName}
        maxLength={256}
        error={errors.fields.client_name}
      />
      <div className="field">
        <div className="field-label-row">
          <label htmlFor={urisId}>Redirect URIs</label>
        </div>
        <textarea
          id={urisId}
          className="input"
          name="redirect_uris"
          rows={3}
          value={uris}
          aria-invalid={errors.fields.redirect_uris ? true : undefined}
          aria-describedby={`${urisId}-hint${errors.fields.redirect_uris ? ` ${urisId}-error` : ''}`}
          onChange={(event) => setUris(event.target.value)}
        />
        <p id={`${urisId}-hint`} className="hint">
          One a line, exactly as the application sends them (https, or http to localhost).
        </p>
        {errors.fields.redirect_uris ? (
          <p id={`${urisId}-error`} className="field-error">
            {errors.fields.redirect_uris}
          </p>
        ) : null}
      </div>
      {choosesKind ? (
        <SelectField
          label="Kind"
          name="kind"
          value={kind}
          onChange={setKind}
          options={[
            { value: 'confidential', label: 'Confidential: a server that keeps a secret' },
            { value: 'public', label: 'Public: a browser or mobile app, no secret' },
          ]}
        />
      ) : null}
      {offersTrust ? (
        <Checkbox
          label="Trusted first-party application"
          name="skip_consent"
          checked={trusted}
          onChange={setTrusted}
          hint="People are not asked for consent. Only for applications you run yourselves."
        />
      ) : null}
      <FormActions>
        <SubmitButton pending={pending} pendingLabel="Saving…">
          {submitLabel}
        </SubmitButton>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
      </FormActions>
    </Form>
  )
}
