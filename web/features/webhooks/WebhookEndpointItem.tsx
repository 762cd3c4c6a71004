import { useRef, useState } from 'react'
import { formatTime } from '../../app/time.js'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Confirm } from '../../ui/Confirm.js'
import { Icon } from '../../ui/icons.js'
import { Notice } from '../../ui/Notice.js'
import { messageFor } from '../errors/messages.js'
import { WebhookDeliveries } from './WebhookDeliveries.js'
import {
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useUpdateWebhookMutation,
  type WebhookEndpoint,
} from './webhooks.api.js'

/// One endpoint: where it points, what it receives, and its actions (disable or enable, a new
/// signing secret, delete, its delivery attempts).

type Props = {
  endpoint: WebhookEndpoint
  /** A new secret to show once, or a line saying what changed. */
  onSecret: (secret: string, url: string) => void
  onChanged: (message: string) => void
}

const DeleteEndpoint = ({
  endpoint,
  headingId,
  onDeleted,
}: {
  endpoint: WebhookEndpoint
  headingId: string
  onDeleted: () => void
}) => {
  const [remove, { isLoading, error }] = useDeleteWebhookMutation()
  const [asking, setAsking] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  if (!asking)
    return (
      <Button
        ref={opener}
        size="small"
        variant="danger-outline"
        aria-describedby={headingId}
        onClick={() => setAsking(true)}
      >
        Delete
      </Button>
    )
  return (
    <Confirm
      question={`Delete the endpoint ${endpoint.url}?`}
      consequence="Nothing more is sent to it, and its secret is destroyed."
      refusal={error ? messageFor(error) : null}
      confirmLabel="Delete endpoint"
      pendingLabel="Deleting…"
      pending={isLoading}
      size="small"
      onConfirm={() =>
        void remove({ endpointId: endpoint.id }).then((result) => {
          if (!('error' in result)) onDeleted()
        })
      }
      onCancel={() => {
        setAsking(false)
        requestAnimationFrame(() => opener.current?.focus())
      }}
    />
  )
}

export const WebhookEndpointItem = ({ endpoint, onSecret, onChanged }: Props) => {
  const [update, updated] = useUpdateWebhookMutation()
  const [rotate, rotated] = useRotateWebhookSecretMutation()
  const [open, setOpen] = useState(false)
  const headingId = `webhook-${endpoint.id}`
  const deliveriesId = `webhook-deliveries-${endpoint.id}`
  const toggle = async () => {
    const result = await update({ endpointId: endpoint.id, enabled: !endpoint.enabled })
    if (!('error' in result)) onChanged(`${endpoint.url} is ${endpoint.enabled ? 'disabled' : 'enabled'}.`)
  }
  const newSecret = async () => {
    const result = await rotate({ endpointId: endpoint.id })
    if ('data' in result && result.data) onSecret(result.data.secret, endpoint.url)
  }
  const error = updated.error ?? rotated.error
  return (
    <li className="session" aria-labelledby={headingId}>
      <span className="session-icon">
        <Icon name="refresh" size={20} />
      </span>
      <div className="session-body">
        <h3 id={headingId} className="webhook-url">
          {endpoint.url}
          {!endpoint.enabled ? <Badge tone="warning">Disabled</Badge> : null}
        </h3>
        <dl className="facts">
          <div>
            <dt>Events</dt>
            <dd>{endpoint.eventTypes.join(', ')}</dd>
          </div>
          <div>
            <dt>Added</dt>
            <dd>
              <time dateTime={endpoint.createdAt}>{formatTime(endpoint.createdAt)}</time>
            </dd>
          </div>
        </dl>
        {error ? <Notice tone="error">{messageFor(error)}</Notice> : null}
      </div>
      <div className="session-action webhook-actions">
        <Button
          size="small"
          aria-expanded={open}
          aria-controls={deliveriesId}
          aria-describedby={headingId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide attempts' : 'Delivery attempts'}
        </Button>
        <Button
          size="small"
          pending={updated.isLoading}
          pendingLabel="Saving…"
          aria-describedby={headingId}
          onClick={() => void toggle()}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button
          size="small"
          pending={rotated.isLoading}
          pendingLabel="Making…"
          aria-describedby={headingId}
          onClick={() => void newSecret()}
        >
          New secret
        </Button>
        <DeleteEndpoint
          endpoint={endpoint}
          headingId={headingId}
          onDeleted={() => onChanged(`${endpoint.url} is deleted.`)}
        />
      </div>
      {/* Under both the facts and the actions: the attempts' table needs the row's whole width. */}
      {open ? (
        <div id={deliveriesId} className="webhook-deliveries-row">
          <WebhookDeliveries endpointId={endpoint.id} url={endpoint.url} />
        </div>
      ) : null}
    </li>
  )
}
