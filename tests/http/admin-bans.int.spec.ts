/// Bans hold on every way in: an API key whose owner is banned opens no session (403 BANNED_USER),
/// and works again once the ban is lifted. (Password and username sign-ins: admin.int.spec.ts.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devicesFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'

describe('bans and API-key sessions (pglite)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({
      env: { SERVER_KEYS: `ops=${SERVER_KEY}` },
      features: { apiKey: { enableSessionForAPIKeys: true } },
    })
  }, 240_000)
  afterAll(() => tessera?.cleanup())

  it("refuses a banned owner's key, and lets it in once unbanned", async () => {
    const ada = await devicesFor(() => tessera, 'a good password').signedUp('ada@example.com')
    const userId = ((await ada.session())?.user.id ?? '') as string
    const created = (await ada.post('/api-key/create', { name: 'cli' })).json as { key: string }
    const asKey = () => tessera.api.request('GET', '/get-session', undefined, { 'x-api-key': created.key })
    const admin = (path: string, body: unknown) =>
      tessera.api.request('POST', path, body, { 'x-tessera-server-key': SERVER_KEY })

    expect((await asKey()).status).toBe(200)
    expect((await admin('/admin/ban-user', { userId })).status).toBe(200)
    expect(await asKey()).toMatchObject({ status: 403, json: { code: 'BANNED_USER' } })
    expect(await ada.session()).toBeNull()
    expect((await admin('/admin/unban-user', { userId })).status).toBe(200)
    expect((await asKey()).status).toBe(200)
  })
})
