import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { renderWithProviders } from '../../test/render.js'
import { limitOf } from './ApiKeyList.js'
import { ApiKeysPage } from './ApiKeysPage.js'
import type { ApiKey } from './api-keys.api.js'

const SECRET = `deploy_${'a'.repeat(64)}`

const apiKey = (id: string, overrides: Partial<ApiKey> = {}): ApiKey => ({
  id,
  name: id,
  start: 'abcdef',
  prefix: null,
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

// A small server: the list answers what create and delete calls have left.
const serveKeys = (initial: ApiKey[]) => {
  let keys = [...initial]
  return fakeApi({
    'GET /api-key/list': () => ({ body: { apiKeys: keys, total: keys.length } }),
    'POST /api-key/create': (call) => {
      const { name } = call.body as { name: string }
      const created = apiKey('new', { name, start: SECRET.slice(0, 6), prefix: 'deploy_' })
      keys = [created, ...keys]
      return { body: { ...created, key: SECRET } }
    },
    'POST /api-key/delete': (call) => {
      const { keyId } = call.body as { keyId: string }
      keys = keys.filter((key) => key.id !== keyId)
      return { body: { success: true } }
    },
    'POST /api-key/update': (call) => {
      const { keyId, enabled } = call.body as { keyId: string; enabled: boolean }
      keys = keys.map((key) => (key.id === keyId ? { ...key, enabled } : key))
      return { body: keys.find((key) => key.id === keyId) }
    },
  })
}

describe('a key’s limits', () => {
  it('reads the window the server answers, whatever it is', () => {
    const base = apiKey('k')
    expect(limitOf({ ...base, rateLimitMax: 100, rateLimitTimeWindow: 300_000 })).toBe(
      '100 requests every 5 minutes',
    )
    expect(limitOf({ ...base, rateLimitMax: 1, rateLimitTimeWindow: 3_600_000 })).toBe('1 request an hour')
    expect(limitOf({ ...base, rateLimitMax: 5, rateLimitTimeWindow: 1_500 })).toBe(
      '5 requests every 1.5 seconds',
    )
    expect(limitOf({ ...base, rateLimitEnabled: false })).toBe('None')
  })
})

describe('the API keys page', () => {
  it('lists each key with its start, dates and usage; an expired one is marked', async () => {
    serveKeys([
      apiKey('ci', {
        lastFour: 'WxYz',
        requestCount: 3,
        lastRequest: '2026-01-12T09:00:00.000Z',
        expiresAt: '2099-04-10T09:00:00.000Z',
      }),
      apiKey('old', {
        enabled: false,
        remaining: 2,
        rateLimitEnabled: false,
        expiresAt: '2020-01-01T00:00:00.000Z',
      }),
    ])
    renderWithProviders(<ApiKeysPage />)
    const list = await screen.findByRole('list', { name: 'Your API keys' })
    const [ci, old] = within(list).getAllByRole('listitem')
    if (!ci || !old) throw new Error('expected two keys')
    expect(within(ci).getByRole('heading').textContent).toBe('ci')
    // The start and the last four tell keys with the same prefix apart; a key made before the last
    // four were kept shows its start alone.
    expect(within(ci).getByText('abcdef…WxYz')).toBeTruthy()
    expect(within(old).getByText('abcdef…')).toBeTruthy()
    expect(ci.textContent).toContain('Usage3 uses')
    // The limit the server answers, as it enforces it; none when the key has none.
    expect(ci.textContent).toContain('Rate limit10 requests a day')
    expect(old.textContent).toContain('Rate limitNone')
    expect(within(ci).getByRole('button', { name: 'Disable' })).toBeTruthy()
    expect(within(old).getByRole('heading').textContent).toBe('oldDisabledExpired')
    expect(old.textContent).toContain('0 uses, 2 left')
    expect(old.textContent).toContain('Last usedNever')
  })

  it('creates a key and shows it once, with a copy button and a warning', async () => {
    const api = serveKeys([])
    const { user } = renderWithProviders(<ApiKeysPage />)
    await screen.findByText('You have no API keys yet.')
    await user.type(screen.getByLabelText('Name'), 'deploy script')
    await user.selectOptions(screen.getByLabelText('Expires after'), '30 days')
    await user.type(screen.getByLabelText(/Prefix/), 'deploy_')
    await user.click(screen.getByRole('button', { name: 'Create key' }))

    const shown = await screen.findByLabelText('New API key')
    expect((shown as HTMLInputElement).value).toBe(SECRET)
    expect(document.activeElement).toBe(shown)
    expect(screen.getByText('Copy it now: you will not see it again.')).toBeTruthy()
    expect(api.to('POST', '/api-key/create')[0]?.body).toEqual({
      name: 'deploy script',
      expiresIn: 30 * 86_400,
      prefix: 'deploy_',
    })
    await user.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await navigator.clipboard.readText()).toBe(SECRET)
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'I have saved it' }))
    expect(screen.queryByLabelText('New API key')).toBeNull()
    expect(document.body.textContent).not.toContain(SECRET)
    const list = await screen.findByRole('list', { name: 'Your API keys' })
    expect(within(list).getByRole('heading').textContent).toBe('deploy script')
  })

  it('asks for a name and refuses a prefix the server would refuse, before sending', async () => {
    const api = serveKeys([])
    const { user } = renderWithProviders(<ApiKeysPage />)
    await screen.findByText('You have no API keys yet.')
    await user.type(screen.getByLabelText(/Prefix/), 'bad prefix')
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByLabelText(/Prefix/).getAttribute('aria-invalid')).toBe('true')
    expect(api.to('POST', '/api-key/create')).toHaveLength(0)
  })

  it('deletes a key only after confirming', async () => {
    const api = serveKeys([apiKey('ci')])
    const { user } = renderWithProviders(<ApiKeysPage />)
    const list = await screen.findByRole('list', { name: 'Your API keys' })
    await user.click(within(list).getByRole('button', { name: 'Delete' }))
    expect(api.to('POST', '/api-key/delete')).toHaveLength(0)
    expect(screen.getByText('Delete “ci”?')).toBeTruthy()
    // The safe answer has the focus: a second Enter does no harm.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(screen.getByRole('button', { name: 'Delete key' }))
    expect(await screen.findByText('“ci” is deleted.')).toBeTruthy()
    expect(api.to('POST', '/api-key/delete')[0]?.body).toEqual({ keyId: 'ci' })
    expect(await screen.findByText('You have no API keys yet.')).toBeTruthy()
  })
})
