/// A `--role api` instance answering get-session while the projector is stopped, as one does beside
/// a projector catching up on a long log (issue 31): the session and its JWT still come back when a
/// signing key exists; when the first key must be made and cannot be projected yet, the answer is
/// 503 READ_MODELS_BEHIND (a 500 before), and get-session signs once the projector runs again.

import { decodeProtectedHeader } from 'jose'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Tessera } from '../../app/server/tessera.js'
import { SIGNING_KEYS_STREAM } from '../../domain/signing-key/signing-key.js'
import { devicesFor } from '../support/browser.js'
import { startApiInstance, startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
// Short, so the refusal comes quickly; generous against a loaded machine for the rest.
const BOUND_MS = 1000
const env = {
  AUTH_SECRET: 'api-role-behind-secret-0123456789abcdef',
  READ_YOUR_WRITES_TIMEOUT_MS: String(BOUND_MS),
}

const getSession = async (tessera: Tessera, cookie: string) => {
  const app = tessera.app
  if (!app) throw new Error('no app')
  const response = await app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })
  return {
    status: response.statusCode,
    json: JSON.parse(response.body) as unknown,
    jwt: response.headers['set-auth-jwt'],
    retryAfter: response.headers['retry-after'],
  }
}

describe('get-session on a --role api instance while the projector is stopped (PostgreSQL)', () => {
  let main: TestTessera
  let api: Tessera
  beforeEach(async () => {
    main = await startTessera({ kind: 'postgres', env })
    api = await startApiInstance(main, env)
  })
  afterEach(async () => {
    await api.close()
    await main.cleanup()
  })
  const { signedUp } = devicesFor(() => main, PASSWORD)

  it('answers the session and its JWT while events wait to be projected', async () => {
    const ada = await signedUp()
    const cookie = ada.jar.header() ?? ''
    // The first key is made and projected while the projector runs.
    expect((await getSession(main, cookie)).status).toBe(200)
    await main.projector.stop()
    // The log moves on without the read models: Grace's sign-up is appended, not shown (503).
    const grace = { name: 'Grace', email: 'grace@example.com', password: PASSWORD }
    expect((await main.api.request('POST', '/sign-up/email', grace)).status).toBe(503)
    const answer = await getSession(api, cookie)
    expect(answer).toMatchObject({ status: 200, json: { user: { email: 'ada@example.com' } } })
    expect(typeof answer.jwt).toBe('string')
  })

  it('answers 503 READ_MODELS_BEHIND, never 500, until the first signing key is projected', async () => {
    const ada = await signedUp()
    const cookie = ada.jar.header() ?? ''
    expect(await main.store.readStream(SIGNING_KEYS_STREAM)).toEqual([])
    await main.projector.stop()

    const started = Date.now()
    const refused = await getSession(api, cookie)
    expect(refused).toMatchObject({
      status: 503,
      json: { code: 'READ_MODELS_BEHIND', message: 'The service is catching up. Try again in a moment.' },
      retryAfter: '1',
    })
    // One bound for the request, not one per wait inside it.
    expect(Date.now() - started).toBeLessThan(5000 + BOUND_MS)
    // The key was made all the same: it is in the log, for the projector to show.
    const [created] = await main.store.readStream(SIGNING_KEYS_STREAM)
    expect(created?.type).toBe('signing-key.created')

    await main.projector.start()
    await vi.waitFor(
      async () => {
        const answer = await getSession(api, cookie)
        expect(answer).toMatchObject({ status: 200, json: { user: { email: 'ada@example.com' } } })
        expect(decodeProtectedHeader(String(answer.jwt)).kid).toBe(
          (created?.data as { kid?: string } | undefined)?.kid,
        )
      },
      { timeout: 15_000, interval: 250 },
    )
  })
})
