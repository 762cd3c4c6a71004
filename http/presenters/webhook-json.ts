/// The JSON of webhook endpoints and delivery attempts, as every webhook route answers them.

import { Type } from 'typebox'
import { eventTypesOf } from '../../projections/webhooks/webhook-endpoints.repository.js'
import type { WebhookEndpointRow } from '../../projections/webhooks/webhook-endpoints.table.js'

export const WebhookEndpointSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  organizationId: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
})

export const WebhookDeliverySchema = Type.Object({
  id: Type.String(),
  eventId: Type.String({ description: 'The `webhook-id` header: the same on every retry' }),
  eventType: Type.String(),
  attempt: Type.Integer(),
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The HTTP status answered; null when none came',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
  latencyMs: Type.Integer(),
  replayFrom: Type.Union([Type.String(), Type.Null()], {
    description: 'The `after` for `/webhook/replay` that delivers this event again, then every later one',
  }),
  resent: Type.Boolean({ description: 'An attempt `/webhook/resend` asked for, outside the log order' }),
})

/** What every webhook route may answer besides its own errors. */
export const WEBHOOK_CALLER_ERRORS = [
  'VALIDATION_ERROR',
  'TOO_MANY_REQUESTS',
  'UNAUTHORIZED',
  'INVALID_SERVER_KEY',
  'SERVER_KEY_FROM_BROWSER',
  'YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS',
] as const

export type WebhookEndpointJson = {
  id: string
  url: string
  eventTypes: string[]
  organizationId: string | null
  description: string | null
  enabled: boolean
  createdAt: string
}

export const endpointJson = (row: WebhookEndpointRow): WebhookEndpointJson => ({
  id: row.id,
  url: row.url,
  eventTypes: eventTypesOf(row),
  organizationId: row.organization_id,
  description: row.description,
  enabled: row.enabled,
  createdAt: row.created_at.toISOString(),
})
