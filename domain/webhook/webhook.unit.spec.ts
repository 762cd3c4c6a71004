import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type WebhookAuthority, type WebhookCommand, type WebhookEvent, webhookDecider } from './webhook.js'

const { given } = specFor(webhookDecider)
const operator: WebhookAuthority = { kind: 'operator' }
const memberAs = (role: string, organizationId = 'org-1'): WebhookAuthority => ({
  kind: 'member',
  organizationId,
  role,
  customRoles: {},
})
const target = { url: 'https://hooks.example.com/in', addressAllowed: true, requireHttps: true }

const create = (
  overrides: Partial<Extract<WebhookCommand, { type: 'create-webhook' }>> = {},
): WebhookCommand => ({
  type: 'create-webhook',
  authority: operator,
  endpointId: 'wh-1',
  target,
  eventTypes: ['user.created', 'user.created'],
  organizationId: null,
  description: null,
  secret: 'whsec_c2VjcmV0',
  createdBy: null,
  now: '2026-11-28T10:00:00.000Z',
  ...overrides,
})

const created = (organizationId: string | null = null): WebhookEvent => ({
  type: 'webhook.endpoint-created',
  data: {
    endpointId: 'wh-1',
    url: target.url,
    eventTypes: ['user.created'],
    organizationId,
    description: null,
    secret: 'whsec_c2VjcmV0',
    createdBy: null,
    createdAt: '2026-11-28T10:00:00.000Z',
  },
})

describe('webhook endpoints', () => {
  it('an operator registers a service-wide endpoint (event types once each)', () => {
    given([]).when(create()).then([created()])
  })

  it('a member registers for their organization when their role holds webhook:create', () => {
    given([])
      .when(create({ authority: memberAs('admin'), organizationId: 'org-1' }))
      .then([created('org-1')])
    given([])
      .when(create({ authority: memberAs('member'), organizationId: 'org-1' }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
    given([])
      .when(create({ authority: memberAs('owner', 'org-2'), organizationId: 'org-1' }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
  })

  it('only an operator registers a service-wide endpoint', () => {
    given([])
      .when(create({ authority: memberAs('owner') }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
    given([])
      .when(create({ authority: { kind: 'none' } }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
  })

  it('refuses plain http in production, refused addresses, odd URLs and unknown event types', () => {
    given([])
      .when(create({ target: { ...target, url: 'http://hooks.example.com/' } }))
      .thenThrows('WEBHOOK_URL_MUST_USE_HTTPS')
    given([])
      .when(create({ target: { ...target, addressAllowed: false } }))
      .thenThrows('WEBHOOK_ADDRESS_NOT_ALLOWED')
    given([])
      .when(create({ target: { ...target, url: 'ftp://x/' } }))
      .thenThrows('INVALID_WEBHOOK_URL')
    given([])
      .when(create({ target: { ...target, url: 'https://u:p@x.example/' } }))
      .thenThrows('INVALID_WEBHOOK_URL')
    given([])
      .when(create({ eventTypes: ['user.registered'] }))
      .thenThrows('UNKNOWN_EVENT_TYPE')
    given([])
      .when(create({ eventTypes: [] }))
      .thenThrows('UNKNOWN_EVENT_TYPE')
  })

  it('rotates the secret, keeping the old one until a time', () => {
    given([created()])
      .when({
        type: 'rotate-webhook-secret',
        authority: operator,
        secret: 'whsec_bmV3',
        previousValidUntil: '2026-11-29T10:00:00.000Z',
      })
      .then([
        {
          type: 'webhook.secret-rotated',
          data: { endpointId: 'wh-1', secret: 'whsec_bmV3', previousValidUntil: '2026-11-29T10:00:00.000Z' },
        },
      ])
  })

  it('disables once, and a deleted endpoint is gone for every command', () => {
    const disable: WebhookCommand = { type: 'disable-webhook', failingSince: '2026-11-25T10:00:00.000Z' }
    given([created()])
      .when(disable)
      .then([
        {
          type: 'webhook.endpoint-disabled',
          data: { endpointId: 'wh-1', failingSince: '2026-11-25T10:00:00.000Z' },
        },
      ])
    given([created(), { type: 'webhook.endpoint-disabled', data: { endpointId: 'wh-1', failingSince: 'x' } }])
      .when(disable)
      .then([])
    const deleted: WebhookEvent = { type: 'webhook.endpoint-deleted', data: { endpointId: 'wh-1' } }
    given([created(), deleted])
      .when({ type: 'delete-webhook', authority: operator })
      .thenThrows('WEBHOOK_ENDPOINT_NOT_FOUND')
    given([])
      .when({ type: 'replay-webhook', authority: operator, after: '0:0' })
      .thenThrows('WEBHOOK_ENDPOINT_NOT_FOUND')
  })

  it('a member of another organization may not touch an endpoint; an update must change something', () => {
    given([created('org-1')])
      .when({ type: 'delete-webhook', authority: memberAs('owner', 'org-2') })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
    given([created('org-1')])
      .when({ type: 'update-webhook', authority: memberAs('admin') })
      .thenThrows('NO_FIELDS_TO_UPDATE')
    given([created('org-1')])
      .when({ type: 'update-webhook', authority: memberAs('admin'), enabled: false })
      .then([{ type: 'webhook.endpoint-updated', data: { endpointId: 'wh-1', enabled: false } }])
  })
})
