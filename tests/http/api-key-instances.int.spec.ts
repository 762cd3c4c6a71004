/// API keys on two instances sharing one PostgreSQL (the second a `--role api` process): usage limits
/// hold across instances (100 concurrent verifications of a key with 10 remaining, spread over both,
/// give exactly 10 valid answers), and a disable or a deletion made on one instance is refused on
/// the other at once, even while the projector is stopped (the inline refusal columns).

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tessera } from '../../app/server/tessera.js'
import { devicesFor } from '../support/browser.js'
import { startApiInstance, startTessera, type TestTessera, testClient } from '../support/tessera.js'

const SERVER_KEY = 'instances-backend-key-0123456789abcdefghij'
const env = { AUTH_SECRET: 'api-key-instances-secret-0123456789abcdef', SERVER_KEYS: `backend=${SERVER_KEY}` }

type Verify = { valid: boolean; error: { code: string } | null; key: { remaining: number | null } | null }

// As a backend calls the server API: the key's header, no cookie, no Origin.
const post = (tessera: Tessera, path: string, body: object) =>
  testClient(tessera).request('POST', path, body, { 'x-tessera-server-key': SERVER_KEY })

describe('API keys on two instances of one PostgreSQL', () => {
  let main: TestTessera
  let api: Tessera
  beforeAll(async () => {
    main = await startTessera({ kind: 'postgres', env })
    api = await startApiInstance(main, env)
  }, 240_000)
  afterAll(async () => {
    await api?.close()
    await main?.cleanup()
  })

  let users = 0
  const keyFor = async (body: object) => {
    users += 1
    const device = await devicesFor(() => main, 'a good password').signedUp(`user${users}@example.com`)
    const userId = (await device.session())?.user.id as string
    const created = await post(main, '/api-key/create', { userId, rateLimitEnabled: false, ...body })
    expect(created.status).toBe(200)
    return { ...(created.json as { id: string; key: string }), userId, device }
  }
  const verify = async (tessera: Tessera, key: string) =>
    (await post(tessera, '/api-key/verify', { key })).json as Verify

  it('never lets remaining go below zero: 100 verifications spread over both give exactly 10', async () => {
    const key = await keyFor({ remaining: 10 })
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => verify(index % 2 === 0 ? main : api, key.key)),
    )
    expect(answers.filter((answer) => answer.valid)).toHaveLength(10)
    const remainings = answers.flatMap((answer) => (answer.valid ? [answer.key?.remaining] : []))
    expect(remainings.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('refuses a key disabled or deleted on one instance on the other at once, the projector stopped', async () => {
    const unmetered = await keyFor({})
    const metered = await keyFor({ remaining: 1000 })
    // Both instances have read (and the main one cached) the keys.
    for (const tessera of [main, api])
      for (const key of [unmetered, metered]) expect((await verify(tessera, key.key)).valid).toBe(true)
    await main.projector.stop()
    try {
      // The projector cannot show either change: 503, but each is committed and holds at once.
      const disabled = await post(main, '/api-key/update', {
        keyId: metered.id,
        userId: metered.userId,
        enabled: false,
      })
      expect(disabled.status).toBe(503)
      for (const tessera of [main, api])
        expect(await verify(tessera, metered.key)).toMatchObject({
          valid: false,
          error: { code: 'KEY_DISABLED' },
        })
      const deleted = await unmetered.device.post('/api-key/delete', { keyId: unmetered.id })
      expect(deleted.status).toBe(503)
      for (const tessera of [main, api])
        expect(await verify(tessera, unmetered.key)).toMatchObject({
          valid: false,
          error: { code: 'INVALID_API_KEY' },
        })
    } finally {
      await main.projector.start()
    }
  })
})
