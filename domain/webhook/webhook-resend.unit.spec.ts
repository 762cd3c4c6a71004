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

const created = (organizationId: string | null): WebhookEvent => ({
  type: 'webhook.endpoint-created',
  data: {
    endpointId: 'wh-1',
    url: 'https://hooks.example.com/in',
    eventTypes: ['user.created'],
    organizationId,
    description: null,
    secret: 'whsec_c2VjcmV0',
    createdBy: null,
    createdAt: '2026-11-28T10:00:00.000Z',
  },
})
const disabled: WebhookEvent = {
  type: 'webhook.endpoint-disabled',
  data: { endpointId: 'wh-1', failingSince: '2026-11-25T10:00:00.000Z' },
}
const message = { eventId: 'evt-7', after: '12:3' }
const resend = (authority: WebhookAuthority, found = true): WebhookCommand => ({
  type: 'resend-webhook-message',
  authority,
  message: found ? message : null,
})
const requested: WebhookEvent = {
  type: 'webhook.resend-requested',
  data: { endpointId: 'wh-1', ...message },
}

describe('resending one webhook message', () => {
  it('an operator resends to a service-wide endpoint; an owner or admin to their organization’s', () => {
    given([created(null)])
      .when(resend(operator))
      .then([requested])
    given([created('org-1')])
      .when(resend(memberAs('owner')))
      .then([requested])
    given([created('org-1')])
      .when(resend(memberAs('admin')))
      .then([requested])
  })

  it('refuses a plain member, another organization’s owner, and members for service-wide endpoints', () => {
    given([created('org-1')])
      .when(resend(memberAs('member')))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
    given([created('org-1')])
      .when(resend(memberAs('owner', 'org-2')))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
    given([created(null)])
      .when(resend(memberAs('owner')))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS')
  })

  it('refuses a message the endpoint was never sent, a missing endpoint, and a disabled one', () => {
    given([created(null)])
      .when(resend(operator, false))
      .thenThrows('WEBHOOK_MESSAGE_NOT_FOUND')
    given([]).when(resend(operator)).thenThrows('WEBHOOK_ENDPOINT_NOT_FOUND')
    given([created(null), disabled])
      .when(resend(operator))
      .thenThrows('WEBHOOK_ENDPOINT_DISABLED')
    given([created(null), { type: 'webhook.endpoint-updated', data: { endpointId: 'wh-1', enabled: false } }])
      .when(resend(operator))
      .thenThrows('WEBHOOK_ENDPOINT_DISABLED')
  })

  it('an endpoint enabled again takes resends again', () => {
    given([
      created(null),
      disabled,
      { type: 'webhook.endpoint-updated', data: { endpointId: 'wh-1', enabled: true } },
    ])
      .when(resend(operator))
      .then([requested])
  })
})
