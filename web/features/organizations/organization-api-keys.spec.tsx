import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import type { ApiKey } from '../api-keys/api-keys.api.js'
import { ADA, fullOrganization, GRACE, renderOrganizations, viewerOf } from './organizations.fixture.js'

/// The organization's API keys: a tab for those whose role the server says may read them (the owner
/// role, roles granting `apiKey`), the personal page's parts with the organization as owner, and
/// refusals in words; a role that may not read them never calls api-key/list.

const SECRET = `ci_${'b'.repeat(64)}`

const orgKey = (id: string, overrides: Partial<ApiKey> = {}): ApiKey => ({
  id,
  name: id,
  start: 'ci_bbb',
  prefix: 'ci_',
  enabled: true,
  createdAt: '2026-01-10T09:00:00.000Z',
  expiresAt: null,
  lastRequest: null,
  requestCount: 0,
  remaining: null,
  rateLimitEnabled: true,
  rateLimitMax: 10,
  rateLimitTimeWindow: 86_400_000,
  ...overrides,
})

const refusal = (code: string, message: string) => ({ status: 403, body: { code, message } })

const INSUFFICIENT = refusal(
  'INSUFFICIENT_API_KEY_PERMISSIONS',
  'You do not have permission to perform this action on organization API keys.',
)

/** A server holding the organization's keys; the list and create answer only for org-1. */
const serveOrganizationKeys = (initial: ApiKey[], members = [ADA, GRACE]) => {
  let keys = [...initial]
  return fakeApi({
    'GET /organization/get-full-organization': { body: fullOrganization({ members }) },
    'GET /organization/viewer': viewerOf('owner'),
    'GET /api-key/list': (call) =>
      call.query.get('organizationId') === 'org-1'
        ? { body: { apiKeys: keys, total: keys.length } }
        : { status: 500, body: { code: 'WRONG_OWNER', message: 'asked for the wrong keys' } },
    'POST /api-key/create': (call) => {
      const { name, organizationId } = call.body as { name: string; organizationId?: string }
      if (organizationId !== 'org-1') return { status: 500, body: { code: 'WRONG_OWNER', message: '' } }
      const created = orgKey('new', { name })
      keys = [created, ...keys]
      return { body: { ...created, key: SECRET } }
    },
    'POST /api-key/update': (call) => {
      const { keyId, enabled } = call.body as { keyId: string; enabled: boolean }
      keys = keys.map((key) => (key.id === keyId ? { ...key, enabled } : key))
      return { body: keys.find((key) => key.id === keyId) }
    },
  })
}

const tabs = () =>
  within(screen.getByRole('navigation', { name: 'Organization' }))
    .getAllByRole('link')
    .map((link) => link.textContent)

describe("an organization's API keys", () => {
  it('offers the tab when the role may read the keys, and lists them as the personal page does', async () => {
    serveOrganizationKeys([orgKey('deploy', { requestCount: 3 })])
    const { user } = renderOrganizations('/account/organizations/org-1')
    await waitFor(() => expect(tabs()).toContain('API keys'))
    expect(tabs()).toEqual(['Members', 'Invitations', 'Teams', 'Activity', 'API keys', 'Settings'])

    await user.click(screen.getByRole('link', { name: 'API keys' }))
    expect(await screen.findByRole('heading', { name: 'API keys', level: 1 })).toBeTruthy()
    const list = await screen.findByRole('list', { name: 'Analytical Engines’s API keys' })
    const [deploy] = within(list).getAllByRole('listitem')
    if (!deploy) throw new Error('expected a key')
    expect(within(deploy).getByRole('heading').textContent).toBe('deploy')
    expect(deploy.textContent).toContain('Usage3 uses')
    expect(deploy.textContent).toContain('Rate limit10 requests a day')
  })

  it('creates a key owned by the organization and shows it once', async () => {
    const api = serveOrganizationKeys([])
    const { user } = renderOrganizations('/account/organizations/org-1/api-keys')
    expect(await screen.findByText('This organization has no API keys yet.')).toBeTruthy()
    await user.type(screen.getByLabelText('Name'), 'billing backend')
    await user.click(screen.getByRole('button', { name: 'Create key' }))

    expect(((await screen.findByLabelText('New API key')) as HTMLInputElement).value).toBe(SECRET)
    expect(api.to('POST', '/api-key/create')[0]?.body).toEqual({
      organizationId: 'org-1',
      name: 'billing backend',
      expiresIn: 90 * 86_400,
    })
    const list = await screen.findByRole('list', { name: 'Analytical Engines’s API keys' })
    expect(within(list).getByRole('heading').textContent).toBe('billing backend')
  })

  it('disables a key of the organization', async () => {
    const api = serveOrganizationKeys([orgKey('deploy')])
    const { user } = renderOrganizations('/account/organizations/org-1/api-keys')
    const list = await screen.findByRole('list', { name: 'Analytical Engines’s API keys' })
    await user.click(within(list).getByRole('button', { name: 'Disable' }))
    expect(await screen.findByText('“deploy” is disabled.')).toBeTruthy()
    expect(api.to('POST', '/api-key/update')[0]?.body).toEqual({ keyId: 'deploy', enabled: false })
  })

  it('hides the tab from a member whose role may not read them, says why at the address, and asks nothing', async () => {
    const api = fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'GET /organization/viewer': viewerOf('member'),
      'GET /api-key/list': INSUFFICIENT,
    })
    const { user } = renderOrganizations('/account/organizations/org-1/api-keys')
    expect(
      await screen.findByText(/As a Member of Analytical Engines, you cannot see its API keys\./),
    ).toBeTruthy()
    expect(tabs()).toEqual(['Members', 'Invitations', 'Teams'])
    expect(screen.queryByRole('button', { name: 'Create key' })).toBeNull()
    expect(api.to('GET', '/api-key/list')).toEqual([])
    await user.click(screen.getByRole('link', { name: 'Back to the members of Analytical Engines' }))
    expect(await screen.findByRole('heading', { name: 'Members', level: 1 })).toBeTruthy()
  })

  it('says so when the server refuses the caller as not a member', async () => {
    fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'GET /organization/viewer': viewerOf('owner'),
      'GET /api-key/list': refusal(
        'USER_NOT_MEMBER_OF_ORGANIZATION',
        'You are not a member of the organization that owns this API key.',
      ),
    })
    renderOrganizations('/account/organizations/org-1/api-keys')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You are not a member of the organization these API keys belong to.',
    )
  })

  it('shows a refused creation in words (a role that may read the keys but not create them)', async () => {
    fakeApi({
      'GET /organization/get-full-organization': { body: fullOrganization() },
      'GET /organization/viewer': viewerOf('owner'),
      'GET /api-key/list': { body: { apiKeys: [], total: 0 } },
      'POST /api-key/create': INSUFFICIENT,
    })
    const { user } = renderOrganizations('/account/organizations/org-1/api-keys')
    await user.type(await screen.findByLabelText('Name'), 'billing backend')
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Your role in this organization does not allow managing its API keys.',
    )
  })
})
