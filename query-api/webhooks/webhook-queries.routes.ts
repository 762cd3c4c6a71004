/// GET /webhook/event-types (the catalogue), GET /webhook/list and GET /webhook/deliveries: an operator sees the service-wide endpoints (or,
/// naming `organizationId`, an organization's); a member whose role holds the `webhook` permission
/// sees their organization's only, never the service-wide ones.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { CATALOGUE_VERSION, publicEventTypes } from '../../domain/public-events/catalogue.js'
import { mayReadWebhooks } from '../../domain/webhook/webhook.js'
import type { AdminGuardContext } from '../../http/guards/admin-caller.js'
import { SERVER_API_SECURITY } from '../../http/guards/server-key.js'
import { webhookCallers } from '../../http/guards/webhook-caller.js'
import {
  endpointJson,
  WEBHOOK_CALLER_ERRORS,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
} from '../../http/presenters/webhook-json.js'
import { errorResponses } from '../../infra/http/openapi.js'
import { listDeliveries } from '../../projections/reactors/webhooks/webhook-deliveries.table.js'
import { findEndpoint, listEndpoints } from '../../projections/webhooks/webhook-endpoints.repository.js'
import type { QueryContext } from '../context.js'

const Id = Type.String({ minLength: 1, maxLength: 256 })
const security = [{ sessionCookie: [] }, ...SERVER_API_SECURITY]
const tags = ['Webhooks']

export const webhookQueryRoutes =
  (ctx: QueryContext & AdminGuardContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const callerOf = webhookCallers(ctx)

    // The catalogue is public knowledge (its payloads are in this document): forms that pick event
    // types read it here instead of keeping a copy that would drift.
    app.get(
      '/webhook/event-types',
      {
        schema: {
          summary: 'The public event types an endpoint or the feed may ask for, and the catalogue version',
          tags,
          response: {
            ...errorResponses('TOO_MANY_REQUESTS'),
            200: Type.Object({ version: Type.String(), eventTypes: Type.Array(Type.String()) }),
          },
        },
      },
      async () => ({ version: CATALOGUE_VERSION, eventTypes: [...publicEventTypes()] }),
    )

    app.get(
      '/webhook/list',
      {
        schema: {
          summary: 'List webhook endpoints (service-wide, or one organization’s)',
          tags,
          security,
          querystring: Type.Object({ organizationId: Type.Optional(Id) }, { additionalProperties: false }),
          response: { ...errorResponses(...WEBHOOK_CALLER_ERRORS), 200: Type.Array(WebhookEndpointSchema) },
        },
      },
      async (request, reply) => {
        const organizationId = request.query.organizationId ?? null
        const { authority } = await callerOf(request, reply, organizationId)
        if (!mayReadWebhooks(authority, organizationId))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
        return (await listEndpoints(ctx.db, organizationId)).map(endpointJson)
      },
    )

    app.get(
      '/webhook/deliveries',
      {
        schema: {
          summary: "A webhook endpoint's delivery attempts, newest first (kept 30 days)",
          tags,
          security,
          querystring: Type.Object(
            { endpointId: Id, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(...WEBHOOK_CALLER_ERRORS, 'WEBHOOK_ENDPOINT_NOT_FOUND'),
            200: Type.Array(WebhookDeliverySchema),
          },
        },
      },
      async (request, reply) => {
        const endpoint = await findEndpoint(ctx.db, request.query.endpointId)
        const organizationId = endpoint?.organization_id ?? null
        const { authority } = await callerOf(request, reply, organizationId)
        if (!endpoint) throw AUTH_ERRORS.error('WEBHOOK_ENDPOINT_NOT_FOUND')
        if (!mayReadWebhooks(authority, organizationId))
          throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
        const rows = await listDeliveries(ctx.db, endpoint.id, request.query.limit ?? 50)
        return rows.map((row) => ({
          id: row.id,
          eventId: row.event_id,
          eventType: row.event_type,
          attempt: row.attempt,
          ok: row.ok,
          status: row.status,
          error: row.error,
          at: row.at.toISOString(),
          latencyMs: row.latency_ms,
          replayFrom: row.replay_from,
          resent: row.resend_id !== null,
        }))
      },
    )
  }
