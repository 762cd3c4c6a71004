/// The server API: an application backend calls Tessera with `x-tessera-server-key`; browsers and
/// user sessions never reach it, and the audit trail names the backend (`server:<name>`).

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runUserCommand } from '../../command-api/shared/run-user-command.js'
import { userStream } from '../../domain/user/user.js'
import { browserFor, devicesFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const BILLING_KEY = 'billing-server-key-0123456789abcdefghij'
const server = { 'x-tessera-server-key': BILLING_KEY }

let tessera: TestTessera
beforeEach(async () => {
  tessera = await startTessera({ env: { SERVER_KEYS: `billing=${BILLING_KEY}` } })
})
afterEach(() => tessera.cleanup())

const socialOnlyUser = async (userId = 'social-user', email = 'social@example.com') => {
  await runUserCommand(
    tessera.ctx,
    { requestId: 'setup', ip: null, userAgent: null },
    userId,
    {
      type: 'register-user',
      userId,
      email,
      name: 'Social Only',
      image: null,
      credential: null,
      sendVerification: false,
      callbackURL: null,
    },
    { type: 'system' },
  )
  return userId
}

describe('POST /set-password over the server API', () => {
  it('gives a password to a user without one, recorded as done by server:billing', async () => {
    const userId = await socialOnlyUser()
    const answer = await tessera.api.request(
      'POST',
      '/set-password',
      { userId, newPassword: 'a new password' },
      server,
    )
    expect(answer).toMatchObject({ status: 200, json: { status: true } })
    const signIn = await browserFor(tessera).post('/sign-in/email', {
      email: 'social@example.com',
      password: 'a new password',
    })
    expect(signIn.status).toBe(200)
    const events = await tessera.store.readStream(userStream(userId))
    const set = events.find((event) => event.type === 'user.password-set')
    expect(set?.metadata.actor).toEqual({ type: 'server', name: 'billing' })
  })

  it('refuses a user who already has a password, a too-short password and an unknown user', async () => {
    const device = await devicesFor(() => tessera, 'first password').signedUp()
    const user = { id: (await device.session())?.user.id }
    const already = await tessera.api.request(
      'POST',
      '/set-password',
      { userId: user.id, newPassword: 'another password' },
      server,
    )
    expect(already).toMatchObject({ status: 400, json: { code: 'PASSWORD_ALREADY_SET' } })
    const userId = await socialOnlyUser()
    const short = await tessera.api.request('POST', '/set-password', { userId, newPassword: 'short' }, server)
    expect(short).toMatchObject({ status: 400, json: { code: 'PASSWORD_TOO_SHORT' } })
    const unknown = await tessera.api.request(
      'POST',
      '/set-password',
      { userId: 'nobody', newPassword: 'a new password' },
      server,
    )
    expect(unknown).toMatchObject({ status: 404, json: { code: 'USER_NOT_FOUND' } })
  })
})

describe('who may call the server API', () => {
  it('refuses a signed-in browser (403), even for its own account', async () => {
    const device = await devicesFor(() => tessera, 'first password').signedUp()
    const answer = await device.post('/set-password', {
      userId: 'social-user',
      newPassword: 'a new password',
    })
    expect(answer).toMatchObject({ status: 403, json: { code: 'SERVER_ONLY_OPERATION' } })
    const bearer = await tessera.api.request(
      'POST',
      '/set-password',
      { userId: 'social-user', newPassword: 'a new password' },
      { authorization: `Bearer ${device.token}` },
    )
    expect(bearer).toMatchObject({ status: 403, json: { code: 'SERVER_ONLY_OPERATION' } })
  })

  it('refuses a good server key sent from a browser or alongside a user session (403)', async () => {
    const userId = await socialOnlyUser()
    const device = await devicesFor(() => tessera, 'first password').signedUp()
    const browserHeaders: Record<string, string>[] = [
      { origin: tessera.ctx.config.baseOrigin },
      { authorization: `Bearer ${device.token}` },
      { cookie: device.jar.header() },
    ]
    for (const extra of browserHeaders) {
      const answer = await tessera.api.request(
        'POST',
        '/set-password',
        { userId, newPassword: 'a new password' },
        { ...server, ...extra },
      )
      expect(answer).toMatchObject({ status: 403, json: { code: 'SERVER_KEY_FROM_BROWSER' } })
    }
  })

  it('refuses a wrong key (401) and, after ten, the address itself (429 with a retry time)', async () => {
    const userId = await socialOnlyUser()
    const wrong = { 'x-tessera-server-key': `${BILLING_KEY}-not` }
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = await tessera.api.request(
        'POST',
        '/set-password',
        { userId, newPassword: 'pw pw pw pw' },
        wrong,
      )
      expect(answer).toMatchObject({ status: 401, json: { code: 'INVALID_SERVER_KEY' } })
    }
    const blocked = await tessera.api.request(
      'POST',
      '/set-password',
      { userId, newPassword: 'pw pw pw pw' },
      server,
    )
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers['x-retry-after'])).toBeGreaterThan(0)
  })

  it('refuses every call when no server key is configured', async () => {
    const bare = await startTessera()
    try {
      const answer = await bare.api.request(
        'POST',
        '/set-password',
        { userId: 'x', newPassword: 'pw pw pw pw' },
        server,
      )
      expect(answer).toMatchObject({ status: 401, json: { code: 'INVALID_SERVER_KEY' } })
    } finally {
      await bare.cleanup()
    }
  })

  it('documents the server key as a security scheme of the API reference', async () => {
    const document = await tessera.app?.inject({ method: 'GET', url: '/api/auth/open-api/generate-schema' })
    const openapi = JSON.parse(document?.body ?? '{}')
    expect(openapi.components.securitySchemes.serverKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-tessera-server-key',
    })
    expect(openapi.paths['/api/auth/set-password'].post.security).toEqual([{ serverKey: [] }])
  })
})
