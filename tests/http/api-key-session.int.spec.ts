/// Sessions from API keys (apiKey.enableSessionForAPIKeys, off by default), as better-auth's
/// api-key plugin answers: get-session with `x-api-key` and no session is the key's owner.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devicesFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

type SessionAnswer = { session: { id: string; userId: string }; user: { id: string; email: string } } | null

describe('get-session from an API key, switched on', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ features: { apiKey: { enableSessionForAPIKeys: true } } })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  it("answers the key's owner, takes a use, and refuses a bad or disabled key", async () => {
    const ada = await devicesFor(() => tessera, 'a good password').signedUp('ada@example.com')
    const created = (await ada.post('/api-key/create', { name: 'cli' })).json as { id: string; key: string }
    const asKey = (key: string) => tessera.api.request('GET', '/get-session', undefined, { 'x-api-key': key })

    const answer = await asKey(created.key)
    expect(answer.status).toBe(200)
    const body = answer.json as SessionAnswer
    expect(body?.user.email).toBe('ada@example.com')
    expect(body?.session).toMatchObject({ id: created.id, userId: body?.user.id })
    expect(
      ((await ada.get(`/api-key/get?id=${created.id}`)).json as { requestCount: number }).requestCount,
    ).toBe(1)

    expect(await asKey('short')).toMatchObject({ status: 403, json: { code: 'INVALID_API_KEY' } })
    expect(await asKey('x'.repeat(64))).toMatchObject({
      status: 401,
      json: { code: 'INVALID_API_KEY', message: 'Invalid API key.' },
    })
    await ada.post('/api-key/update', { keyId: created.id, enabled: false })
    expect(await asKey(created.key)).toMatchObject({ status: 401, json: { code: 'KEY_DISABLED' } })

    // An organization's key stands for no person: no session (better-auth refuses it too).
    const organization = await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })
    const organizationId = (organization.json as { id: string }).id
    const owned = await ada.post('/api-key/create', { organizationId })
    expect(owned.status).toBe(200)
    expect(await asKey((owned.json as { key: string }).key)).toMatchObject({
      status: 401,
      json: { code: 'INVALID_API_KEY' },
    })
  })
})

describe('get-session from an API key, by default', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera()
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  it('ignores x-api-key: no session', async () => {
    const ada = await devicesFor(() => tessera, 'a good password').signedUp('ada@example.com')
    const created = (await ada.post('/api-key/create', {})).json as { key: string }
    const answer = await tessera.api.request('GET', '/get-session', undefined, { 'x-api-key': created.key })
    expect(answer).toMatchObject({ status: 200, json: null })
  })
})
