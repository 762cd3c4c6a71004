import { render, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { makeStore } from '../../app/store.js'
import { fakeApi } from '../../test/fake-api.js'
import { ADA, fullOrganization, GRACE, renderOrganizations } from '../organizations/organizations.fixture.js'
import { WebhooksConsolePage } from './WebhooksConsolePage.js'
import type { WebhookDelivery, WebhookEndpoint } from './webhooks.api.js'

/// Webhooks in the portal: an organization's owner adds an endpoint (its secret shown once),
/// disables it, makes a new secret, reads its delivery attempts, replays from one and deletes it;
/// an operator manages the service-wide endpoints in the console; a role without the `webhook`
/// permission sees no section.

const SECRET = `whsec_${'A'.repeat(32)}`
const NEW_SECRET = `whsec_${'B'.repeat(32)}`
const TYPES = ['user.created', 'member.created', 'member.deleted', 'passkey.added']

const endpointOf = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'wh-1',
  url: 'https://hooks.example.com/tessera',
  eventTypes: ['member.created'],
  organizationId: 'org-1',
  description: null,
  enabled: true,
  createdAt: '2026-11-28T10:00:00.000Z',
  ...overrides,
})

const DELIVERY: WebhookDelivery = {
  id: 'd-1',
  eventId: 'ev-1',
  eventType: 'member.created',
  attempt: 2,
  ok: false,
  status: 500,
  error: null,
  at: '2026-11-28T10:05:00.000Z',
  latencyMs: 42,
  replayFrom: 'MTIzOjQ1',
  resent: false,
}

/** A server holding endpoints in memory; every call is recorded. */
const serveWebhooks = (organizationId: string | null, permissions: Record<string, string[]> | null) => {
  let endpoints: WebhookEndpoint[] = []
  return fakeApi({
    'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
    ...(permissions
      ? {
          'GET /organization/viewer': {
            body: { role: 'owner', permissions, features: { teams: true, customRoles: false } },
          },
        }
      : {}),
    'GET /webhook/event-types': { body: { version: '2026-11-28', eventTypes: TYPES } },
    'GET /webhook/list': () => ({ body: endpoints }),
    'POST /webhook/create': (call) => {
      const { url, eventTypes } = call.body as { url: string; eventTypes: string[] }
      if (url.includes('10.0.0.1'))
        return { status: 400, body: { code: 'WEBHOOK_ADDRESS_NOT_ALLOWED', message: 'not allowed' } }
      endpoints = [endpointOf({ url, eventTypes, organizationId })]
      return { body: { endpoint: endpoints[0], secret: SECRET } }
    },
    'POST /webhook/update': (call) => {
      const { enabled } = call.body as { enabled: boolean }
      endpoints = endpoints.map((endpoint) => ({ ...endpoint, enabled }))
      return { body: endpoints[0] }
    },
    'POST /webhook/rotate-secret': { body: { secret: NEW_SECRET } },
    'GET /webhook/deliveries': { body: [DELIVERY] },
    'POST /webhook/replay': { body: { success: true } },
    // The endpoint is disabled by then: the server refuses, and the page says why.
    'POST /webhook/resend': {
      status: 400,
      body: { code: 'WEBHOOK_ENDPOINT_DISABLED', message: 'Webhook endpoint is disabled' },
    },
    'POST /webhook/delete': () => {
      endpoints = []
      return { body: { success: true } }
    },
  })
}

describe('webhooks in the organization’s settings', { timeout: 30_000 }, () => {
  it('adds an endpoint with its secret shown once, then disables, re-keys, replays, resends and deletes it', async () => {
    const api = serveWebhooks('org-1', null)
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Webhooks' })).toBeTruthy()
    expect(await screen.findByText('No endpoint yet.')).toBeTruthy()
    await user.type(screen.getByLabelText('Endpoint address'), 'https://hooks.example.com/tessera')
    await user.click(await screen.findByRole('checkbox', { name: 'member.created' }))
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
    expect(await screen.findByText(SECRET)).toBeTruthy()
    expect(api.to('POST', '/webhook/create')[0]?.body).toEqual({
      url: 'https://hooks.example.com/tessera',
      eventTypes: ['member.created'],
      organizationId: 'org-1',
    })
    expect(api.to('GET', '/webhook/list').every((call) => call.query.get('organizationId') === 'org-1')).toBe(
      true,
    )
    const list = await screen.findByRole('list', { name: 'Webhook endpoints' })
    const item = await within(list).findByRole('listitem', { name: 'https://hooks.example.com/tessera' })
    expect(item.textContent).not.toContain(SECRET)
    expect(item.textContent).toContain('member.created')

    await user.click(within(item).getByRole('button', { name: 'Disable' }))
    await waitFor(() =>
      expect(api.to('POST', '/webhook/update')[0]?.body).toEqual({ endpointId: 'wh-1', enabled: false }),
    )
    expect(await screen.findByText('https://hooks.example.com/tessera is disabled.')).toBeTruthy()
    expect(screen.queryByText(SECRET)).toBeNull()
    expect(await within(item).findByRole('button', { name: 'Enable' })).toBeTruthy()

    await user.click(within(item).getByRole('button', { name: 'New secret' }))
    expect(await screen.findByText(NEW_SECRET)).toBeTruthy()

    await user.click(within(item).getByRole('button', { name: 'Delivery attempts' }))
    const table = await within(item).findByRole('table')
    const row = within(table).getAllByRole('row')[1] as HTMLElement
    expect(row.textContent).toContain('member.created')
    expect(row.textContent).toContain('attempt 2')
    expect(row.textContent).toContain('Failed')
    expect(row.textContent).toContain('HTTP 500')
    expect(row.textContent).toContain('42 ms')
    await user.click(within(row).getByRole('button', { name: 'Replay from here' }))
    await waitFor(() =>
      expect(api.to('POST', '/webhook/replay')[0]?.body).toEqual({ endpointId: 'wh-1', after: 'MTIzOjQ1' }),
    )
    expect(await within(item).findByText(/start again from this member.created event/)).toBeTruthy()
    await user.click(within(row).getByRole('button', { name: 'Resend' }))
    await waitFor(() =>
      expect(api.to('POST', '/webhook/resend')[0]?.body).toEqual({ endpointId: 'wh-1', eventId: 'ev-1' }),
    )
    expect(
      await within(item).findByText('This endpoint is disabled. Enable it first, then resend.'),
    ).toBeTruthy()

    await user.click(within(item).getByRole('button', { name: 'Delete' }))
    await user.click(await within(item).findByRole('button', { name: 'Delete endpoint' }))
    await waitFor(() => expect(api.to('POST', '/webhook/delete')[0]?.body).toEqual({ endpointId: 'wh-1' }))
    expect(await screen.findByText('No endpoint yet.')).toBeTruthy()
  })

  it('shows no webhooks to a role without the webhook permission', async () => {
    const api = serveWebhooks('org-1', { organization: ['update'], member: ['update'], ac: ['read'] })
    renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Details' })).toBeTruthy()
    await waitFor(() => expect(api.to('GET', '/organization/viewer')).not.toEqual([]))
    expect(screen.queryByRole('heading', { name: 'Webhooks' })).toBeNull()
    expect(api.to('GET', '/webhook/list')).toEqual([])
  })

  it('shows them to a role that holds it', async () => {
    serveWebhooks('org-1', {
      organization: ['update'],
      webhook: ['create', 'update', 'delete'],
      ac: ['read'],
    })
    renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Webhooks' })).toBeTruthy()
  })
})

describe('webhooks in the console', { timeout: 30_000 }, () => {
  const renderConsole = () => {
    const user = userEvent.setup()
    render(
      <Provider store={makeStore()}>
        <MemoryRouter>
          <WebhooksConsolePage />
        </MemoryRouter>
      </Provider>,
    )
    return { user }
  }

  it('adds a service-wide endpoint (no organization), and places a refused address under its field', async () => {
    const api = serveWebhooks(null, null)
    const { user } = renderConsole()
    expect(await screen.findByRole('heading', { name: 'Webhooks', level: 1 })).toBeTruthy()
    await user.type(screen.getByLabelText('Endpoint address'), 'http://10.0.0.1/hook')
    await user.click(await screen.findByRole('checkbox', { name: 'user.created' }))
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
    await waitFor(() =>
      expect(screen.getByLabelText('Endpoint address').getAttribute('aria-invalid')).toBe('true'),
    )
    expect(screen.getByLabelText('Endpoint address').getAttribute('aria-describedby')).toBeTruthy()
    expect(screen.getAllByText(/on a private network/).length).toBeGreaterThan(0)
    expect(api.to('POST', '/webhook/create')[0]?.body).toEqual({
      url: 'http://10.0.0.1/hook',
      eventTypes: ['user.created'],
    })
    expect(api.to('GET', '/webhook/list')[0]?.query.has('organizationId')).toBe(false)
  })

  it('asks for an event type before sending anything', async () => {
    const api = serveWebhooks(null, null)
    const { user } = renderConsole()
    await user.type(await screen.findByLabelText('Endpoint address'), 'https://hooks.example.com/x')
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
    expect(await screen.findByText('Pick at least one event type.')).toBeTruthy()
    expect(api.to('POST', '/webhook/create')).toEqual([])
  })
})
