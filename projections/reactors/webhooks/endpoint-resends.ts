/// Resends: each `webhook.resend-requested` (read model `webhook_resends`) becomes one attempt of
/// that one message, with its same `webhook-id`, outside the endpoint's order and retry schedule (it
/// does not move the checkpoint and is not retried: whoever asked sees the outcome and may ask again).

import type { Kysely } from 'kysely'
import { type EventStore, parsePosition } from '../../../infra/event-store/event-store.js'
import type { Database } from '../../database.js'
import type { WebhookResendRow } from '../../webhooks/webhook-resends.table.js'
import { type Attempting, messageBody, type SendDeps, sendAttempt } from './send-attempt.js'
import { RETENTION_MS, recordAttempt, withWebhookTables } from './webhook-deliveries.table.js'

/**
 * The endpoint's resend requests not yet attempted, oldest first. Requests older than the attempts'
 * retention are left: their attempt may have been purged, and a rebuilt read model must not send
 * them again. A request's attempt is found by its `resend_id`, whose index holds only the attempts
 * that have one (webhook-deliveries.table.ts).
 */
export const pendingResendsQuery = (db: Kysely<Database>, endpointId: string, since: Date) =>
  withWebhookTables(db)
    .selectFrom('webhook_resends')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('requested_at', '>=', since)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tessera_webhook_deliveries')
            .select('tessera_webhook_deliveries.id')
            .whereRef('tessera_webhook_deliveries.resend_id', '=', 'webhook_resends.id'),
        ),
      ),
    )
    .orderBy('requested_at')
    .orderBy('id')

const pendingResends = (db: Kysely<Database>, endpointId: string, since: Date): Promise<WebhookResendRow[]> =>
  pendingResendsQuery(db, endpointId, since).execute()

export type ResendDeps = SendDeps & { store: EventStore; isStopped(): boolean }

/** The event a request names, read back from the log where it sits. */
const messageOf = async (store: EventStore, resend: WebhookResendRow) => {
  const after = parsePosition(resend.after)
  if (!after) return undefined
  const [event] = await store.readAll(after, 1)
  return event?.id === resend.event_id ? event : undefined
}

/** An attempt that could not be made (the event is not this endpoint's): recorded, so it is done. */
const refused = (db: Kysely<Database>, deps: ResendDeps, state: Attempting, resend: WebhookResendRow) =>
  recordAttempt(db, {
    id: resend.id,
    endpoint_id: state.endpoint.id,
    event_id: resend.event_id,
    event_type: 'unknown',
    attempt: 1,
    ok: false,
    status: null,
    error: 'This event cannot be sent to this endpoint',
    at: deps.now(),
    latency_ms: 0,
    replay_from: null,
    resend_id: resend.id,
  })

export const runResends = async (
  db: Kysely<Database>,
  deps: ResendDeps,
  state: Attempting,
): Promise<void> => {
  const since = new Date(deps.now().getTime() - RETENTION_MS)
  for (const resend of await pendingResends(db, state.endpoint.id, since)) {
    if (deps.isStopped()) return
    const event = await messageOf(deps.store, resend)
    const body = event ? messageBody(state.endpoint, event) : null
    if (event && body) await sendAttempt(db, deps, state, event, body, { attempt: 1, resendId: resend.id })
    else await refused(db, deps, state, resend)
  }
}
