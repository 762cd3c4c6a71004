/// Bearer mode over HTTP (better-auth's `bearer` plugin): `Authorization: Bearer` stands for the
/// session cookie, with the signed value `set-auth-token` hands out (URL-encoded or not) or the
/// bare token; a tampered value is no session; a bearer request without cookies needs no Origin;
/// answers that set the session cookie send `set-auth-token`, exposed to trusted origins.

import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { browserFor, type SessionAnswer } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SECRET = 'bearer-conformance-secret-0123456789abcdef'
const PASSWORD = 'correct horse battery'
const TRUSTED = 'https://app.example.com'
const T0 = Date.parse('2030-01-15T10:00:00.000Z')
const DAY = 86_400_000

const sign = (value: string) => createHmac('sha256', SECRET).update(value).digest('base64')

describe('bearer tokens (pglite)', () => {
  let tessera: TestTessera
  let now = T0
  beforeEach(async () => {
    now = T0
    tessera = await startTessera({
      env: { AUTH_SECRET: SECRET, TRUSTED_ORIGINS: TRUSTED },
      clock: () => new Date(now),
    })
  })
  afterEach(() => tessera.cleanup())

  const request = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) =>
    tessera.api.request(method, path, body, headers)
  const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` })

  const signUp = async (email = 'ada@example.com', headers: Record<string, string> = {}) => {
    const response = await request('POST', '/sign-up/email', headers, {
      name: 'Ada',
      email,
      password: PASSWORD,
    })
    expect(response.status).toBe(200)
    const { token, user } = response.json as { token: string; user: { id: string } }
    return { response, token, user, signed: String(response.headers['set-auth-token']) }
  }

  it('hands out the signed token in set-auth-token on sign-up and sign-in', async () => {
    const { response, token, signed } = await signUp()
    expect(signed).toBe(`${token}.${sign(token)}`)
    // No Origin, no CORS: nothing to expose.
    expect(response.headers['access-control-expose-headers']).toBeUndefined()

    const signIn = await request(
      'POST',
      '/sign-in/email',
      {},
      { email: 'ada@example.com', password: PASSWORD },
    )
    const signInToken = (signIn.json as { token: string }).token
    expect(signIn.headers['set-auth-token']).toBe(`${signInToken}.${sign(signInToken)}`)
    // A failed sign-in sets no cookie and hands out no token.
    const wrong = await request(
      'POST',
      '/sign-in/email',
      {},
      { email: 'ada@example.com', password: 'nope nope nope' },
    )
    expect(wrong.status).toBe(401)
    expect(wrong.headers['set-auth-token']).toBeUndefined()
  })

  it('exposes set-auth-token to a trusted origin only (an untrusted one gets no sign-in at all)', async () => {
    const { response } = await signUp('ada@example.com', { origin: TRUSTED })
    expect(response.headers['access-control-expose-headers']).toBe('set-auth-token')
    const untrusted = await request(
      'POST',
      '/sign-in/email',
      { origin: 'https://evil.example' },
      { email: 'ada@example.com', password: PASSWORD },
    )
    // Refused outright now (login CSRF guard, infra/http/origin-check.ts): no token to expose.
    expect(untrusted.status).toBe(403)
    expect(untrusted.headers['set-auth-token']).toBeUndefined()
    expect(untrusted.headers['access-control-expose-headers']).toBeUndefined()
  })

  it('accepts the signed value, URL-encoded or not, and the bare token, on get-session and list-sessions', async () => {
    const { token, user, signed } = await signUp()
    for (const credential of [signed, encodeURIComponent(signed), token]) {
      const session = await request('GET', '/get-session', bearer(credential))
      expect((session.json as SessionAnswer).user.id).toBe(user.id)
      expect((session.json as SessionAnswer).session.token).toBe(token)
      const listed = await request('GET', '/list-sessions', bearer(credential))
      expect(listed.status).toBe(200)
      expect(listed.json).toHaveLength(1)
    }
    // The scheme is case-insensitive, as in better-auth.
    expect((await request('GET', '/get-session', { authorization: `bearer ${signed}` })).json).not.toBeNull()
  })

  it('treats a tampered or foreign credential as no session', async () => {
    const { token, signed } = await signUp()
    const tampered = [
      `${token}.${sign(`${token}x`)}`,
      `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}.${sign(token)}`,
      `${token}.`,
      'not-a-token',
    ]
    for (const credential of tampered) {
      expect((await request('GET', '/get-session', bearer(credential))).json).toBeNull()
      expect((await request('GET', '/list-sessions', bearer(credential))).status).toBe(401)
    }
    // Other schemes are not bearer tokens.
    expect((await request('GET', '/get-session', { authorization: `Basic ${signed}` })).json).toBeNull()
  })

  it('lets the bearer token win over a cookie, and falls back to the cookie when it is tampered', async () => {
    const ada = await signUp('ada@example.com')
    const bob = await signUp('bob@example.com')
    const cookie = { cookie: `better-auth.session_token=${encodeURIComponent(ada.signed)}` }
    const asBob = await request('GET', '/get-session', { ...cookie, ...bearer(bob.signed) })
    expect((asBob.json as SessionAnswer).user.id).toBe(bob.user.id)
    const tampered = await request('GET', '/get-session', {
      ...cookie,
      ...bearer(`${bob.token}.${sign('x')}`),
    })
    expect((tampered.json as SessionAnswer).user.id).toBe(ada.user.id)
  })

  it('needs no Origin on a POST authenticated by a bearer token and no cookie', async () => {
    const { token, signed } = await signUp()
    const phone = browserFor(tessera)
    expect(
      (await phone.post('/sign-in/email', { email: 'ada@example.com', password: PASSWORD })).status,
    ).toBe(200)

    const others = await request('POST', '/revoke-other-sessions', bearer(signed), {})
    expect(others.status).toBe(200)
    expect(others.json).toEqual({ status: true })
    expect(await phone.session()).toBeNull()

    const signOut = await request('POST', '/sign-out', bearer(token), {})
    expect(signOut.status).toBe(200)
    expect((await request('GET', '/get-session', bearer(signed))).json).toBeNull()
  })

  it('still checks the Origin when the bearer request also carries cookies', async () => {
    const { signed } = await signUp()
    const response = await request(
      'POST',
      '/revoke-other-sessions',
      { ...bearer(signed), cookie: 'theme=dark', origin: 'https://evil.example' },
      {},
    )
    expect(response.status).toBe(403)
    expect(response.json).toMatchObject({ code: 'INVALID_ORIGIN' })
  })

  it('sends the new token after change-password with revokeOtherSessions', async () => {
    const { token, signed } = await signUp()
    const changed = await request(
      'POST',
      '/change-password',
      { ...bearer(signed), origin: TRUSTED },
      {
        currentPassword: PASSWORD,
        newPassword: 'an even better passphrase',
        revokeOtherSessions: true,
      },
    )
    expect(changed.status).toBe(200)
    const renewed = (changed.json as { token: string }).token
    expect(renewed).not.toBe(token)
    expect(changed.headers['set-auth-token']).toBe(`${renewed}.${sign(renewed)}`)
    expect(changed.headers['access-control-expose-headers']).toContain('set-auth-token')
    expect((await request('GET', '/get-session', bearer(signed))).json).toBeNull()
    expect((await request('GET', '/get-session', bearer(renewed))).json).not.toBeNull()

    const unchanged = await request('POST', '/change-password', bearer(renewed), {
      currentPassword: 'an even better passphrase',
      newPassword: 'yet another passphrase',
    })
    expect(unchanged.status).toBe(200)
    expect(unchanged.headers['set-auth-token']).toBeUndefined()
  })

  it('sends set-auth-token when get-session slides a bearer session, and never after expiry', async () => {
    const { token } = await signUp()
    expect((await request('GET', '/get-session', bearer(token))).headers['set-auth-token']).toBeUndefined()
    now = T0 + 2 * DAY
    const slid = await request('GET', '/get-session', bearer(token))
    expect(slid.headers['set-auth-token']).toBe(`${token}.${sign(token)}`)
    now += 8 * DAY
    const expired = await request('GET', '/get-session', bearer(token))
    expect(expired.json).toBeNull()
    expect(expired.headers['set-auth-token']).toBeUndefined()
  })
})
