/// POST /webhook/create, /webhook/update, /webhook/delete, /webhook/rotate-secret, /webhook/replay,
/// /webhook/resend:
/// webhook endpoints, managed by an operator (admin session or server key; service-wide when no
/// `organizationId`) or by a member whose role holds the organization's `webhook` permission.
/// Tessera's own routes (better-auth has no webhooks); errors in the house shape.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { SERVER_API_SECURITY } from '../../http/guards/server-key.js'
import { webhookCallers } from '../../http/guards/webhook-caller.js'
import { WEBHOOK_CALLER_ERRORS, WebhookEndpointSchema } from '../../http/presenters/webhook-json.js'
import { errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  createWebhook,
  deleteWebhook,
  replayWebhook,
  resendWebhookMessage,
  rotateWebhookSecret,
  updateWebhook,
} from './manage-webhooks.js'
import type { AppContextForWebhooks } from './webhook-context.js'

const Id = Type.String({ minLength: 1, maxLength: 256 })
const Url = Type.String({ minLength: 1, maxLength: 2048 })
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 })

const CreateBody = Type.Object(
  {
    url: Url,
    eventTypes: EventTypes,
    organizationId: Type.Optional(Id),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
)
const UpdateBody = Type.Object(
  {
    endpointId: Id,
    url: Type.Optional(Url),
    eventTypes: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
const EndpointBody = Type.Object({ endpointId: Id }, { additionalProperties: false })
const ReplayBody = Type.Object(
  { endpointId: Id, after: Type.Optional(Type.String({ maxLength: 128 })) },
  { additionalProperties: false },
)
const ResendBody = Type.Object(
  { endpointId: Id, eventId: Type.String({ minLength: 1, maxLength: 256, description: 'The `webhook-id`' }) },
  { additionalProperties: false },
)
const Success = Type.Object({ success: Type.Boolean() })

const ERRORS = [...POST_ERRORS, ...WEBHOOK_CALLER_ERRORS, 'WEBHOOK_ENDPOINT_NOT_FOUND'] as const
const URL_ERRORS = [
  'INVALID_WEBHOOK_URL',
  'WEBHOOK_URL_MUST_USE_HTTPS',
  'WEBHOOK_ADDRESS_NOT_ALLOWED',
  'UNKNOWN_EVENT_TYPE',
] as const
const security = [{ sessionCookie: [] }, ...SERVER_API_SECURITY]
const tags = ['Webhooks']

export const webhookCommandRoutes =
  (ctx: AppContextForWebhooks): FastifyPluginAsyncTypebox =>
  async (app) => {
    const callerOf = webhookCallers(ctx)
    /** The caller as the endpoint's organization sees them. */
    const callerFor = async (
      request: Parameters<typeof callerOf>[0],
      reply: Parameters<typeof callerOf>[1],
      endpointId: string,
    ) =>
      callerOf(request, reply, (await ctx.lookups.webhooks.findEndpoint(endpointId))?.organization_id ?? null)

    app.post(
      '/webhook/create',
      {
        schema: {
          summary: 'Register a webhook endpoint (the signing secret is in this answer only)',
          description:
            'Without `organizationId`: a service-wide endpoint (an admin session or the server key). With it: that organization\'s endpoint (a member whose role holds `webhook: ["create"]`: owners and admins).',
          tags,
          security,
          body: CreateBody,
          response: {
            ...errorResponses(...ERRORS, ...URL_ERRORS),
            200: Type.Object({ endpoint: WebhookEndpointSchema, secret: Type.String() }),
          },
        },
      },
      async (request, reply) => {
        const caller = await callerOf(request, reply, request.body.organizationId ?? null)
        return createWebhook(ctx, originOf(request), caller, request.body)
      },
    )

    app.post(
      '/webhook/update',
      {
        schema: {
          summary: 'Change a webhook endpoint (URL, event types, enabled)',
          tags,
          security,
          body: UpdateBody,
          response: {
            ...errorResponses(...ERRORS, ...URL_ERRORS, 'NO_FIELDS_TO_UPDATE'),
            200: WebhookEndpointSchema,
          },
        },
      },
      async (request, reply) => {
        const caller = await callerFor(request, reply, request.body.endpointId)
        return updateWebhook(ctx, originOf(request), caller, request.body)
      },
    )

    app.post(
      '/webhook/delete',
      {
        schema: {
          summary: 'Delete a webhook endpoint',
          tags,
          security,
          body: EndpointBody,
          response: { ...errorResponses(...ERRORS), 200: Success },
        },
      },
      async (request, reply) => {
        const caller = await callerFor(request, reply, request.body.endpointId)
        await deleteWebhook(ctx, originOf(request), caller, request.body.endpointId)
        return { success: true }
      },
    )

    app.post(
      '/webhook/rotate-secret',
      {
        schema: {
          summary: 'Give a webhook endpoint a new signing secret (the old one also signs for 24 hours)',
          tags,
          security,
          body: EndpointBody,
          response: { ...errorResponses(...ERRORS), 200: Type.Object({ secret: Type.String() }) },
        },
      },
      async (request, reply) => {
        const caller = await callerFor(request, reply, request.body.endpointId)
        return rotateWebhookSecret(ctx, originOf(request), caller, request.body.endpointId)
      },
    )

    app.post(
      '/webhook/replay',
      {
        schema: {
          summary: "Deliver again every event after a cursor (the feed's; none: from the start)",
          tags,
          security,
          body: ReplayBody,
          response: { ...errorResponses(...ERRORS, 'INVALID_CURSOR'), 200: Success },
        },
      },
      async (request, reply) => {
        const caller = await callerFor(request, reply, request.body.endpointId)
        await replayWebhook(ctx, originOf(request), caller, request.body.endpointId, request.body.after)
        return { success: true }
      },
    )

    app.post(
      '/webhook/resend',
      {
        schema: {
          summary: 'Send one message again, alone, with its same `webhook-id` (an attempt is recorded)',
          description:
            'The message is one this endpoint was sent (its attempts are kept 30 days). A disabled endpoint is refused: enable it first.',
          tags,
          security,
          body: ResendBody,
          response: {
            ...errorResponses(...ERRORS, 'WEBHOOK_MESSAGE_NOT_FOUND', 'WEBHOOK_ENDPOINT_DISABLED'),
            200: Success,
          },
        },
      },
      async (request, reply) => {
        const { endpointId, eventId } = request.body
        const caller = await callerFor(request, reply, endpointId)
        await resendWebhookMessage(ctx, originOf(request), caller, endpointId, eventId)
        return { success: true }
      },
    )
  }
