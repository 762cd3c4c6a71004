/// The webhook endpoint aggregate: an application's URL that receives the public events it asked
/// for, signed with a secret of its own. Registered service-wide by an operator, or for one
/// organization by a member whose role holds the `webhook` permission. Every rule is here: who may,
/// which URLs and event types; time, ids and secrets arrive in the command.

import { AUTH_ERRORS } from '../errors.js'
import { hasPermission, type Statements } from '../organization/permissions.js'
import { isPublicEventType } from '../public-events/catalogue.js'
import type { Decider } from '../shared/decider.js'
import type { WebhookEvent } from './webhook.events.js'

export * from './webhook.events.js'

/// State

export type WebhookEndpoint =
  | { status: 'none' }
  | { status: 'deleted' }
  | { status: 'active'; endpointId: string; organizationId: string | null; enabled: boolean }

export const initialState = (): WebhookEndpoint => ({ status: 'none' })

/// Commands

/**
 * Who asks, as the edge found them: an operator (admin session or server key), a member of an
 * organization with their role, or someone who is neither.
 */
export type WebhookAuthority =
  | { kind: 'operator' }
  | {
      kind: 'member'
      organizationId: string
      role: string
      customRoles: Readonly<Record<string, Statements>>
    }
  | { kind: 'none' }

/** What the edge learnt of a URL: its own words are checked here; the address needs DNS there. */
export type UrlFacts = { url: string; addressAllowed: boolean; requireHttps: boolean }

export type WebhookCommand =
  | {
      type: 'create-webhook'
      authority: WebhookAuthority
      endpointId: string
      target: UrlFacts
      eventTypes: readonly string[]
      organizationId: string | null
      description: string | null
      secret: string
      createdBy: string | null
      now: string
    }
  | {
      type: 'update-webhook'
      authority: WebhookAuthority
      target?: UrlFacts
      eventTypes?: readonly string[]
      enabled?: boolean
    }
  | { type: 'delete-webhook'; authority: WebhookAuthority }
  | { type: 'rotate-webhook-secret'; authority: WebhookAuthority; secret: string; previousValidUntil: string }
  | { type: 'replay-webhook'; authority: WebhookAuthority; after: string }
  | {
      type: 'resend-webhook-message'
      authority: WebhookAuthority
      /** The message as the edge found it among this endpoint's attempts; null: none such. */
      message: { eventId: string; after: string } | null
    }
  | { type: 'disable-webhook'; failingSince: string }

type Action = 'create' | 'update' | 'delete'

/// Evolve: no rules, never throws

export const evolve = (state: WebhookEndpoint, event: WebhookEvent): WebhookEndpoint => {
  switch (event.type) {
    case 'webhook.endpoint-created':
      return {
        status: 'active',
        endpointId: event.data.endpointId,
        organizationId: event.data.organizationId,
        enabled: true,
      }
    case 'webhook.endpoint-updated':
      return state.status === 'active' && event.data.enabled !== undefined
        ? { ...state, enabled: event.data.enabled }
        : state
    case 'webhook.endpoint-disabled':
      return state.status === 'active' ? { ...state, enabled: false } : state
    case 'webhook.endpoint-deleted':
      return { status: 'deleted' }
    default:
      return state
  }
}

/// Decide

/** Whether `authority` may `action` the endpoints of `organizationId` (null: service-wide ones). */
export const mayManageWebhooks = (
  authority: WebhookAuthority,
  organizationId: string | null,
  action: Action,
): boolean => {
  if (authority.kind === 'operator') return true
  if (authority.kind === 'none' || organizationId === null) return false
  return (
    authority.organizationId === organizationId &&
    hasPermission(authority.role, { webhook: [action] }, authority.customRoles)
  )
}

const refuseUnless = (allowed: boolean): void => {
  if (!allowed) throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
}

const checkUrl = ({ url, addressAllowed, requireHttps }: UrlFacts): void => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw AUTH_ERRORS.error('INVALID_WEBHOOK_URL')
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw AUTH_ERRORS.error('INVALID_WEBHOOK_URL')
  if (parsed.username !== '' || parsed.password !== '') throw AUTH_ERRORS.error('INVALID_WEBHOOK_URL')
  if (requireHttps && parsed.protocol !== 'https:') throw AUTH_ERRORS.error('WEBHOOK_URL_MUST_USE_HTTPS')
  if (!addressAllowed) throw AUTH_ERRORS.error('WEBHOOK_ADDRESS_NOT_ALLOWED')
}

const checkEventTypes = (types: readonly string[]): void => {
  if (types.length === 0 || !types.every(isPublicEventType)) throw AUTH_ERRORS.error('UNKNOWN_EVENT_TYPE')
}

const existing = (state: WebhookEndpoint) => {
  if (state.status !== 'active') throw AUTH_ERRORS.error('WEBHOOK_ENDPOINT_NOT_FOUND')
  return state
}

/** The endpoint, once `authority` may `action` it. */
const allowed = (authority: WebhookAuthority, state: WebhookEndpoint, action: Action) => {
  const endpoint = existing(state)
  refuseUnless(mayManageWebhooks(authority, endpoint.organizationId, action))
  return endpoint
}

const create = (command: Extract<WebhookCommand, { type: 'create-webhook' }>, state: WebhookEndpoint) => {
  refuseUnless(mayManageWebhooks(command.authority, command.organizationId, 'create'))
  if (state.status !== 'none') throw AUTH_ERRORS.error('WEBHOOK_ENDPOINT_NOT_FOUND')
  checkUrl(command.target)
  checkEventTypes(command.eventTypes)
  const { endpointId, organizationId, description, secret, createdBy, now } = command
  return [
    {
      type: 'webhook.endpoint-created' as const,
      data: {
        endpointId,
        url: command.target.url,
        eventTypes: [...new Set(command.eventTypes)],
        organizationId,
        description,
        secret,
        createdBy,
        createdAt: now,
      },
    },
  ]
}

const update = (command: Extract<WebhookCommand, { type: 'update-webhook' }>, state: WebhookEndpoint) => {
  const endpoint = allowed(command.authority, state, 'update')
  if (command.target) checkUrl(command.target)
  if (command.eventTypes) checkEventTypes(command.eventTypes)
  const changes = {
    ...(command.target ? { url: command.target.url } : {}),
    ...(command.eventTypes ? { eventTypes: [...new Set(command.eventTypes)] } : {}),
    ...(command.enabled !== undefined ? { enabled: command.enabled } : {}),
  }
  if (Object.keys(changes).length === 0) throw AUTH_ERRORS.error('NO_FIELDS_TO_UPDATE')
  return [
    { type: 'webhook.endpoint-updated' as const, data: { endpointId: endpoint.endpointId, ...changes } },
  ]
}

/**
 * One message again. A disabled endpoint is refused: nothing is sent to it until it is enabled
 * again, and a resend that waited silently for that would surprise whoever asked.
 */
const resend = (
  command: Extract<WebhookCommand, { type: 'resend-webhook-message' }>,
  state: WebhookEndpoint,
) => {
  const { endpointId, enabled } = allowed(command.authority, state, 'update')
  if (!command.message) throw AUTH_ERRORS.error('WEBHOOK_MESSAGE_NOT_FOUND')
  if (!enabled) throw AUTH_ERRORS.error('WEBHOOK_ENDPOINT_DISABLED')
  const { eventId, after } = command.message
  return [{ type: 'webhook.resend-requested' as const, data: { endpointId, eventId, after } }]
}

export const decide = (command: WebhookCommand, state: WebhookEndpoint): WebhookEvent[] => {
  switch (command.type) {
    case 'create-webhook':
      return create(command, state)
    case 'update-webhook':
      return update(command, state)
    case 'delete-webhook': {
      const { endpointId } = allowed(command.authority, state, 'delete')
      return [{ type: 'webhook.endpoint-deleted', data: { endpointId } }]
    }
    case 'rotate-webhook-secret': {
      const { endpointId } = allowed(command.authority, state, 'update')
      const { secret, previousValidUntil } = command
      return [{ type: 'webhook.secret-rotated', data: { endpointId, secret, previousValidUntil } }]
    }
    case 'replay-webhook': {
      const { endpointId } = allowed(command.authority, state, 'update')
      return [{ type: 'webhook.replay-requested', data: { endpointId, after: command.after } }]
    }
    case 'resend-webhook-message':
      return resend(command, state)
    case 'disable-webhook': {
      const { endpointId, enabled } = existing(state)
      if (!enabled) return []
      return [{ type: 'webhook.endpoint-disabled', data: { endpointId, failingSince: command.failingSince } }]
    }
    default: {
      const unreachable: never = command
      throw unreachable
    }
  }
}

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookEndpoint> = {
  decide,
  evolve,
  initialState,
}

/** Whether `authority` may see the endpoints (and the events) of `organizationId`. */
export const mayReadWebhooks = (authority: WebhookAuthority, organizationId: string | null): boolean =>
  (['create', 'update', 'delete'] as const).some((action) =>
    mayManageWebhooks(authority, organizationId, action),
  )
