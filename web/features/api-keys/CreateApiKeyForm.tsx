import { useEffect, useRef, useState } from 'react'
import { Button, SubmitButton } from '../../ui/Button.js'
import { SelectField, TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { DraftRestored, useDraft } from '../session/use-draft.js'
import { type KeyOwner, useCreateApiKeyMutation } from './api-keys.api.js'

type Field = 'name' | 'expiresIn' | 'prefix'

const DAY = 86_400
const EXPIRY = [
  { value: 'never', label: 'Never' },
  { value: String(7 * DAY), label: '7 days' },
  { value: String(30 * DAY), label: '30 days' },
  { value: String(90 * DAY), label: '90 days' },
  { value: String(365 * DAY), label: '1 year' },
] as const
type Expiry = (typeof EXPIRY)[number]['value']

/** The server's limits (better-auth's api-key defaults). */
export const KEY_NAME_MAX = 32
export const KEY_PREFIX_MAX = 32

const CODES: Partial<Record<string, Field>> = {
  INVALID_NAME_LENGTH: 'name',
  INVALID_PREFIX_LENGTH: 'prefix',
  EXPIRES_IN_IS_TOO_SMALL: 'expiresIn',
  EXPIRES_IN_IS_TOO_LARGE: 'expiresIn',
}

const checkPrefix = (prefix: string): string | null =>
  prefix === '' || /^[a-zA-Z0-9_-]+$/.test(prefix) ? null : 'Use only letters, digits, “_” and “-”.'

/** The new key, shown this once with a copy button; the server keeps only its hash. */
const NewKey = ({ secret, name, onDone }: { secret: string; name: string; onDone: () => void }) => {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const field = useRef<HTMLInputElement>(null)
  // Focus lands on the key, selected, so it can be copied by keyboard at once.
  useEffect(() => {
    field.current?.focus()
    field.current?.select()
  }, [])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <Notice tone="success" title={`Your new key${name ? ` “${name}”` : ''}`}>
      <p>
        <strong>Copy it now: you will not see it again.</strong> Tessera keeps only a fingerprint of it.
      </p>
      <div className="api-key-secret">
        <label htmlFor="new-api-key" className="visually-hidden">
          New API key
        </label>
        <input
          ref={field}
          id="new-api-key"
          className="input mono"
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
        />
        <Button size="small" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {copied === 'failed' ? <p>Copying did not work here: select the key and copy it yourself.</p> : null}
      <FormActions>
        <Button size="small" onClick={onDone}>
          I have saved it
        </Button>
      </FormActions>
    </Notice>
  )
}

export const CreateApiKeyForm = ({ owner, onCreated }: { owner?: KeyOwner; onCreated: () => void }) => {
  const [create, { isLoading }] = useCreateApiKeyMutation()
  const draft = useDraft<Record<Field, string>>(`api-key:${owner?.organizationId ?? 'own'}`)
  const [name, setName] = useState(draft.kept?.name ?? '')
  const [expiry, setExpiry] = useState<Expiry>(
    EXPIRY.find((option) => option.value === draft.kept?.expiresIn)?.value ?? (String(90 * DAY) as Expiry),
  )
  const [prefix, setPrefix] = useState(draft.kept?.prefix ?? '')
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null)

  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({
      name: name.trim() === '' ? 'Give the key a name, so you can tell it from the others.' : null,
      prefix: checkPrefix(prefix.trim()),
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      const answer = await create({
        ...(owner?.organizationId ? { organizationId: owner.organizationId } : {}),
        name: name.trim(),
        ...(expiry === 'never' ? {} : { expiresIn: Number(expiry) }),
        ...(prefix.trim() === '' ? {} : { prefix: prefix.trim() }),
      }).unwrap()
      draft.saved()
      setCreated({ key: answer.key, name: answer.name ?? '' })
      setName('')
      setPrefix('')
      onCreated()
    } catch (error) {
      draft.keepIfSessionEnded(error, { name, expiresIn: expiry, prefix })
      setErrors(placeError<Field>(error, CODES, ['name', 'expiresIn', 'prefix']))
    }
  }

  if (created) return <NewKey secret={created.key} name={created.name} onDone={() => setCreated(null)} />
  return (
    <Form label="Create an API key" onSubmit={onSubmit} errors={errors}>
      <DraftRestored draft={draft} />
      <TextField
        label="Name"
        name="name"
        maxLength={KEY_NAME_MAX}
        value={name}
        onChange={setName}
        hint="What uses it, e.g. “deploy script”."
        error={errors.fields.name}
      />
      <SelectField<Expiry>
        label="Expires after"
        name="expiresIn"
        value={expiry}
        onChange={setExpiry}
        options={EXPIRY}
        error={errors.fields.expiresIn}
      />
      <TextField
        label="Prefix"
        name="prefix"
        optional
        autoCapitalize="none"
        maxLength={KEY_PREFIX_MAX}
        value={prefix}
        onChange={setPrefix}
        hint="Put at the start of the key to recognise it (letters, digits, “_” and “-”), e.g. “deploy_”."
        error={errors.fields.prefix}
      />
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Creating…">
          Create key
        </SubmitButton>
      </FormActions>
    </Form>
  )
}
