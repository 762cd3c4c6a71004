/// A key's own rate limit (`rateLimitEnabled`, `rateLimitTimeWindow`, `rateLimitMax`) on two instances
/// of one PostgreSQL (the second a `--role api` process): the window is counted in the key's usage
/// row by one guarded UPDATE, not in any instance's memory, so the instances together allow
/// `rateLimitMax` verifications per window, not one allowance each.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Tessera } from '../../app/server/tessera.js'
import { devicesFor } from '../support/browser.js'
import { startApiInstance, startTessera, type TestTessera, testClient } from '../support/tessera.js'

const SERVER_KEY = 'rate-limit-backend-key-0123456789abcdefghij'
const env = {
  AUTH_SECRET: 'api-key-rate-limit-secret-0123456789abcdef',
  SERVER_KEYS: `backend=${SERVER_KEY}`,
}

type Verify = { valid: boolean; error: { code: string; details?: { tryAgainIn?: number } } | null }

// As a backend calls the server API: the key's header, no cookie, no Origin.
const post = (tessera: Tessera, path: string, body: object) =>
  testClient(tessera).request('POST', path, body, { 'x-tessera-server-key': SERVER_KEY })

describe("an API key's rate limit on two instances of one PostgreSQL", () => {
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

  it('allows rateLimitMax verifications per window in all, then RATE_LIMITED with the time to wait', async () => {
    const device = await devicesFor(() => main, 'a good password').signedUp('limited@example.com')
    const userId = (await device.session())?.user.id as string
    const created = await post(main, '/api-key/create', {
      userId,
      rateLimitEnabled: true,
      rateLimitTimeWindow: 60_000,
      rateLimitMax: 5,
    })
    expect(created.status).toBe(200)
    const { key } = created.json as { key: string }
    const answers = await Promise.all(
      Array.from(
        { length: 40 },
        async (_, index) =>
          (await post(index % 2 === 0 ? main : api, '/api-key/verify', { key })).json as Verify,
      ),
    )
    expect(answers.filter((answer) => answer.valid)).toHaveLength(5)
    const refused = answers.filter((answer) => !answer.valid)
    expect(new Set(refused.map((answer) => answer.error?.code))).toEqual(new Set(['RATE_LIMITED']))
    for (const answer of refused) expect(answer.error?.details?.tryAgainIn).toBeGreaterThan(0)
    // Asked again after the burst, on the other instance: still refused, within the window's time.
    const later = (await post(api, '/api-key/verify', { key })).json as Verify
    expect(later.error?.code).toBe('RATE_LIMITED')
    expect(later.error?.details?.tryAgainIn).toBeGreaterThan(0)
    expect(later.error?.details?.tryAgainIn).toBeLessThanOrEqual(60_000)
  })
})
