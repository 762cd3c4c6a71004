/// One attempt at one message: the body an event makes for an endpoint, signed (Standard Webhooks)
/// with every secret that signs now, posted, and recorded as an attempt whatever came back. The
/// log's own deliveries keep their attempt rows and write them with the checkpoint, several at once
/// (endpoint-worker.ts); a resend writes its own at once (`sendAttempt`).

import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { organizationOf, toPublicEvent } from '../../../domain/public-events/catalogue.js'
import type { GlobalPosition, RecordedEvent } from '../../../infra/event-store/event-store.js'
import type { AddressPolicy } from '../../../infra/webhooks/address-guard.js'
import { encodeCursor } from '../../../infra/webhooks/cursor.js'
import { signatureHeader } from '../../../infra/webhooks/signature.js'
import type { Database } from '../../database.js'
import type { WebhookEndpointRow } from '../../webhooks/webhook-endpoints.table.js'
import type { EndpointTargets } from './endpoint-targets.js'
import { postWebhook } from './post-webhook.js'
import {
  recordAttempt,
  type WebhookDeliveriesTable,
  type WebhookProgressRow,
} from './webhook-deliveries.table.js'

export type SendDeps = { policy: AddressPolicy; endpointTargets: EndpointTargets; now: () => Date }

export type Attempting = { endpoint: WebhookEndpointRow; secrets: string[]; progress: WebhookProgressRow }

/**
 * The public event's JSON as this endpoint may receive it (whatever types it asks for now), or null:
 * not a public event, or another organization's.
 */
export const messageBody = (
  endpoint: WebhookEndpointRow,
  event: RecordedEvent,
): { type: string; text: string } | null => {
  if (endpoint.organization_id !== null && organizationOf(event) !== endpoint.organization_id) return null
  return publicBody(event)
}

// The endpoints share the pages they read (shared-log-reads.ts): an event read once is published
// once for all of them. Keyed by the object read, so a later read (after an erasure) starts afresh.
const published = new WeakMap<RecordedEvent, { type: string; text: string } | null>()

const publicBody = (event: RecordedEvent): { type: string; text: string } | null => {
  const known = published.get(event)
  if (known !== undefined) return known
  const payload = toPublicEvent(event)
  const body = payload ? { type: payload.type, text: JSON.stringify(payload) } : null
  published.set(event, body)
  return body
}

/** The cursor just before a position (sequence numbers start at 1), or null where there is none. */
const replayFrom = (position: GlobalPosition): string | null =>
  position.seq > 0n ? encodeCursor({ tx: position.tx, seq: position.seq - 1n }) : null

/** Sends one event; the attempt as it is to be recorded (`ok`: the endpoint acknowledged it, 2xx). */
export const attemptOnce = async (
  deps: SendDeps,
  { endpoint, secrets }: Attempting,
  event: RecordedEvent,
  body: { type: string; text: string },
  mark: { attempt: number; resendId?: string },
): Promise<WebhookDeliveriesTable> => {
  const at = deps.now()
  const timestamp = Math.floor(at.getTime() / 1000)
  // The event's id is the message id: the same on every retry, replay and resend (the receiver's
  // idempotency key).
  const headers = {
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, event.id, timestamp, body.text),
    'user-agent': 'Tessera-Webhooks/1',
  }
  const result = await postWebhook(deps.policy, endpoint.url, headers, body.text, deps.endpointTargets)
  return {
    id: randomUUID(),
    endpoint_id: endpoint.id,
    event_id: event.id,
    event_type: body.type,
    attempt: mark.attempt,
    ok: result.ok,
    status: result.status,
    error: result.error,
    at,
    latency_ms: result.latencyMs,
    replay_from: replayFrom(event.position),
    resend_id: mark.resendId ?? null,
  }
}

/** Sends one event and records the attempt at once; true when the endpoint acknowledged it. */
export const sendAttempt = async (
  db: Kysely<Database>,
  deps: SendDeps,
  state: Attempting,
  event: RecordedEvent,
  body: { type: string; text: string },
  mark: { attempt: number; resendId?: string },
): Promise<boolean> => {
  const attempt = await attemptOnce(deps, state, event, body, mark)
  await recordAttempt(db, attempt)
  return attempt.ok
}
