/// Webhook endpoint use cases: create (the secret is drawn here and shown once), update, delete,
/// rotate the secret (the old one keeps signing for a day), replay from a cursor, resend one
/// message. The edge resolves
/// the caller and the URL's address; the decider (domain/webhook) refuses whatever is not allowed.

import { AUTH_ERRORS } from '../../domain/errors.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import {
  type UrlFacts,
  type WebhookCommand,
  webhookDecider,
  webhookStream,
} from '../../domain/webhook/webhook.js'
import type { WebhookCaller } from '../../http/guards/webhook-caller.js'
import { endpointJson, type WebhookEndpointJson } from '../../http/presenters/webhook-json.js'
import { newId } from '../../infra/crypto/tokens.js'
import { formatPosition, START } from '../../infra/event-store/event-store.js'
import { addressPolicy, literalAddressAllowed } from '../../infra/webhooks/address-guard.js'
import { decodeCursor } from '../../infra/webhooks/cursor.js'
import { newWebhookSecret } from '../../infra/webhooks/signature.js'
import type { CommandContext } from '../context.js'

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000

const urlFacts = (ctx: CommandContext, url: string): UrlFacts => ({
  url,
  addressAllowed: literalAddressAllowed(addressPolicy(ctx.config.webhooks.allowAddresses), url),
  requireHttps: ctx.config.production,
})

const run = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: WebhookCaller,
  endpointId: string,
  command: WebhookCommand,
  newStream = false,
) => {
  const metadata = metadataFor(origin, caller.actor, ctx.clock())
  await ctx.handle(webhookDecider, webhookStream(endpointId), command, { metadata, newStream })
}

const presented = async (ctx: CommandContext, endpointId: string): Promise<WebhookEndpointJson> => {
  const row = await ctx.lookups.webhooks.findEndpoint(endpointId)
  if (!row) throw AUTH_ERRORS.error('WEBHOOK_ENDPOINT_NOT_FOUND')
  return endpointJson(row)
}

export type CreateWebhookInput = {
  url: string
  eventTypes: string[]
  organizationId?: string | undefined
  description?: string | undefined
}

export const createWebhook = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: WebhookCaller,
  input: CreateWebhookInput,
): Promise<{ endpoint: WebhookEndpointJson; secret: string }> => {
  const endpointId = newId()
  const secret = newWebhookSecret()
  await run(
    ctx,
    origin,
    caller,
    endpointId,
    {
      type: 'create-webhook',
      authority: caller.authority,
      endpointId,
      target: urlFacts(ctx, input.url),
      eventTypes: input.eventTypes,
      organizationId: input.organizationId ?? null,
      description: input.description ?? null,
      secret,
      createdBy: caller.userId,
      now: ctx.clock().toISOString(),
    },
    true,
  )
  return { endpoint: await presented(ctx, endpointId), secret }
}

export type UpdateWebhookInput = {
  endpointId: string
  url?: string
  eventTypes?: string[]
  enabled?: boolean
}

export const updateWebhook = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: WebhookCaller,
  { endpointId, url, eventTypes, enabled }: UpdateWebhookInput,
): Promise<WebhookEndpointJson> => {
  await run(ctx, origin, caller, endpointId, {
    type: 'update-webhook',
    authority: caller.authority,
    ...(url !== undefined ? { target: urlFacts(ctx, url) } : {}),
    ...(eventTypes !== undefined ? { eventTypes } : {}),
    ...(enabled !== undefined ? { enabled } : {}),
  })
  return presented(ctx, endpointId)
}

export const deleteWebhook = (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: WebhookCaller,
  endpointId: string,
) => run(ctx, origin, caller, endpointId, { type: 'delete-webhook', authority: caller.authority })

export const rotateWebhookSecret = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: WebhookCaller,
  endpointId: string,
): Promise<{ secret: string }> => {
  const secret = newWebhookSecret()
  const previousValidUntil = new Date(ctx.clock().getTime() + ROTATION_OVERLAP_MS).toISOString()
  await run(ctx, origin, caller, endpointId, {
    type: 'rotate-webhook-secret',
    authority: caller.authority,
    secret,
    previousValidUntil,
  })
  return { secret }
}

/** Deliveries start again after `after` (a feed cursor; absent: the start of the log). */
export const replayWebhook = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: WebhookCaller,
  endpointId: string,
  after: string | undefined,
): Promise<void> => {
  const position = after === undefined || after === '' ? START : decodeCursor(after)
  if (!position) throw AUTH_ERRORS.error('INVALID_CURSOR')
  await run(ctx, origin, caller, endpointId, {
    type: 'replay-webhook',
    authority: caller.authority,
    after: formatPosition(position),
  })
}

/**
 * One message sent again, alone, with its same `webhook-id`. The message is one this endpoint was
 * sent (an attempt is on record, kept 30 days); the reactor makes the attempt and records it.
 */
export const resendWebhookMessage = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: WebhookCaller,
  endpointId: string,
  eventId: string,
): Promise<void> => {
  const cursor = await ctx.lookups.webhooks.findMessageCursor(endpointId, eventId)
  const before = cursor === null ? null : decodeCursor(cursor)
  await run(ctx, origin, caller, endpointId, {
    type: 'resend-webhook-message',
    authority: caller.authority,
    message: before ? { eventId, after: formatPosition(before) } : null,
  })
}
