import { useState } from 'react'
import { formatTime } from '../../app/time.js'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Notice } from '../../ui/Notice.js'
import { messageFor } from '../errors/messages.js'
import {
  useReplayWebhookMutation,
  useResendWebhookMessageMutation,
  useWebhookDeliveriesQuery,
  type WebhookDelivery,
} from './webhooks.api.js'

/// An endpoint's delivery attempts, newest first (the server keeps 30 days): what was sent, what
/// came back and how long it took. "Resend" sends that one event again, alone; "Replay from here"
/// sends it again, then every later one, in order (receivers tell repeats by their `webhook-id`).

const outcomeOf = (delivery: WebhookDelivery) =>
  delivery.status !== null ? `HTTP ${delivery.status}` : (delivery.error ?? 'No answer')

type RowActions = {
  onReplay: (delivery: WebhookDelivery) => void
  onResend: (delivery: WebhookDelivery) => void
  busy: boolean
}

const DeliveryRow = ({ delivery, onReplay, onResend, busy }: { delivery: WebhookDelivery } & RowActions) => (
  <tr>
    <td data-label="Event">
      <code>{delivery.eventType}</code>
      {delivery.attempt > 1 ? <span className="muted small"> · attempt {delivery.attempt}</span> : null}
      {delivery.resent ? <span className="muted small"> · resent</span> : null}
    </td>
    <td data-label="Status">
      <Badge tone={delivery.ok ? 'success' : 'warning'}>{delivery.ok ? 'Delivered' : 'Failed'}</Badge>{' '}
      <span className="small">{outcomeOf(delivery)}</span>
    </td>
    <td data-label="Time">
      <time dateTime={delivery.at}>{formatTime(delivery.at)}</time>
    </td>
    <td data-label="Latency">{delivery.latencyMs} ms</td>
    <td>
      {delivery.replayFrom ? (
        <div className="webhook-actions">
          <Button size="small" disabled={busy} onClick={() => onResend(delivery)}>
            Resend
          </Button>
          <Button size="small" disabled={busy} onClick={() => onReplay(delivery)}>
            Replay from here
          </Button>
        </div>
      ) : null}
    </td>
  </tr>
)

export const WebhookDeliveries = ({ endpointId, url }: { endpointId: string; url: string }) => {
  const deliveries = useWebhookDeliveriesQuery({ endpointId })
  const [replay, replayed] = useReplayWebhookMutation()
  const [resend, resent] = useResendWebhookMessageMutation()
  const [notice, setNotice] = useState<string | null>(null)
  const onResend = async (delivery: WebhookDelivery) => {
    setNotice(null)
    const result = await resend({ endpointId, eventId: delivery.eventId })
    if (!('error' in result)) setNotice(`This ${delivery.eventType} event is on its way again, alone.`)
  }
  const onReplay = async (delivery: WebhookDelivery) => {
    if (!delivery.replayFrom) return
    setNotice(null)
    const result = await replay({ endpointId, after: delivery.replayFrom })
    if (!('error' in result))
      setNotice(`Deliveries start again from this ${delivery.eventType} event, then every later one.`)
  }
  if (deliveries.isLoading) return <p className="muted">Loading delivery attempts…</p>
  if (deliveries.error) return <Notice tone="error">{messageFor(deliveries.error)}</Notice>
  const rows = deliveries.data ?? []
  return (
    <div className="webhook-deliveries">
      <Notice tone="success">{notice}</Notice>
      <Notice tone="error">{replayed.error ? messageFor(replayed.error) : null}</Notice>
      <Notice tone="error">{resent.error ? messageFor(resent.error) : null}</Notice>
      {rows.length === 0 ? (
        <p className="muted">No delivery attempt yet.</p>
      ) : (
        <div className="webhook-table-scroll">
          <table className="webhook-table">
            <caption>Delivery attempts to {url}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Time</th>
                <th scope="col">Latency</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((delivery) => (
                <DeliveryRow
                  key={delivery.id}
                  delivery={delivery}
                  busy={replayed.isLoading || resent.isLoading}
                  onReplay={(one) => void onReplay(one)}
                  onResend={(one) => void onResend(one)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Button
        size="small"
        pending={deliveries.isFetching}
        pendingLabel="Refreshing…"
        onClick={() => deliveries.refetch()}
      >
        Refresh
      </Button>
    </div>
  )
}
