import { useState } from 'react'
import { SubmitButton } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Checkbox, TextField } from '../../ui/Field.js'
import { Form, FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { type FormErrors, fieldErrors, noErrors, placeError } from '../errors/form-errors.js'
import { messageFor } from '../errors/messages.js'
import { WebhookEndpointItem } from './WebhookEndpointItem.js'
import { useCreateWebhookMutation, useListWebhooksQuery, useWebhookEventTypesQuery } from './webhooks.api.js'
import './webhooks.css'

/// Webhook endpoints of one organization (its settings) or of the whole service (the console):
/// add one (an address and the event types it receives), its signing secret shown once, then each
/// listed with its actions and delivery attempts.

type Field = 'url' | 'eventTypes'

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  INVALID_WEBHOOK_URL: 'url',
  WEBHOOK_URL_MUST_USE_HTTPS: 'url',
  WEBHOOK_ADDRESS_NOT_ALLOWED: 'url',
  UNKNOWN_EVENT_TYPE: 'eventTypes',
}

const checkUrl = (url: string): string | null => {
  try {
    const parsed = new URL(url.trim())
    return parsed.protocol === 'https:' || parsed.protocol === 'http:'
      ? null
      : 'Use a web address (https://…).'
  } catch {
    return 'Use a full web address, like https://example.com/webhooks.'
  }
}

const AddEndpoint = ({
  organizationId,
  onCreated,
}: {
  organizationId: string | null
  onCreated: (secret: string, url: string) => void
}) => {
  const catalogue = useWebhookEventTypesQuery()
  const [create, { isLoading }] = useCreateWebhookMutation()
  const [url, setUrl] = useState('')
  const [types, setTypes] = useState<string[]>([])
  const [errors, setErrors] = useState<FormErrors<Field>>(noErrors())
  const onSubmit = async () => {
    if (isLoading) return
    const problems = fieldErrors<Field>({
      url: checkUrl(url),
      eventTypes: types.length === 0 ? 'Pick at least one event type.' : null,
    })
    setErrors(problems ?? noErrors())
    if (problems) return
    try {
      const answer = await create({ organizationId, url: url.trim(), eventTypes: types }).unwrap()
      onCreated(answer.secret, answer.endpoint.url)
      setUrl('')
      setTypes([])
    } catch (error) {
      setErrors(placeError<Field>(error, FIELD_OF_CODE, ['url', 'eventTypes']))
    }
  }
  const pick = (type: string, on: boolean) =>
    setTypes(on ? [...types, type] : types.filter((one) => one !== type))
  return (
    <Form label="Add a webhook endpoint" onSubmit={onSubmit} errors={errors}>
      <h3 className="webhook-add-heading">Add an endpoint</h3>
      <TextField
        label="Endpoint address"
        name="url"
        type="url"
        autoCapitalize="none"
        maxLength={2048}
        value={url}
        onChange={setUrl}
        hint="Where Tessera POSTs each event, signed as Standard Webhooks say."
        error={errors.fields.url}
      />
      <fieldset className="webhook-types" aria-invalid={errors.fields.eventTypes ? true : undefined}>
        <legend>Event types</legend>
        {catalogue.error ? <Notice tone="error">{messageFor(catalogue.error)}</Notice> : null}
        {(catalogue.data?.eventTypes ?? []).map((type) => (
          <Checkbox
            key={type}
            label={type}
            name="eventTypes"
            checked={types.includes(type)}
            onChange={(on) => pick(type, on)}
          />
        ))}
        {errors.fields.eventTypes ? <p className="field-error">{errors.fields.eventTypes}</p> : null}
      </fieldset>
      <FormActions>
        <SubmitButton pending={isLoading} pendingLabel="Adding…">
          Add endpoint
        </SubmitButton>
      </FormActions>
    </Form>
  )
}

export const WebhookEndpoints = ({
  organizationId,
  description,
}: {
  organizationId: string | null
  description: string
}) => {
  const list = useListWebhooksQuery({ organizationId })
  const [secret, setSecret] = useState<{ secret: string; url: string } | null>(null)
  const [changed, setChanged] = useState<string | null>(null)
  const showSecret = (value: string, url: string) => {
    setChanged(null)
    setSecret({ secret: value, url })
  }
  const endpoints = list.data ?? []
  return (
    <Card title="Webhooks" description={description}>
      {secret ? (
        <Notice
          tone="success"
          title={`Copy the signing secret of ${secret.url} now: it will not be shown again.`}
        >
          <code className="webhook-secret">{secret.secret}</code>
        </Notice>
      ) : null}
      <Notice tone="success">{changed}</Notice>
      <Notice tone="error">{list.error ? messageFor(list.error) : null}</Notice>
      {list.isLoading ? null : endpoints.length === 0 ? (
        <p className="muted">No endpoint yet.</p>
      ) : (
        <ul className="rows" aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <WebhookEndpointItem
              key={endpoint.id}
              endpoint={endpoint}
              onSecret={showSecret}
              onChanged={(message) => {
                setSecret(null)
                setChanged(message)
              }}
            />
          ))}
        </ul>
      )}
      <AddEndpoint organizationId={organizationId} onCreated={showSecret} />
    </Card>
  )
}
