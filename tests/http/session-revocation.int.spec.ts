/// Ending sessions over HTTP: list-sessions, revoke-session (one's own by token or listed id; someone
/// else's changes nothing), revoke-other-sessions, revoke-sessions and sign-out, and the 401 and
/// origin checks in front of them.

import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { devicesFor } from '../support/browser.js'
import { describeEachDatabase } from '../support/databases.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const SECRET = 'lifecycle-conformance-secret-0123456789abcdef'
const COOKIE = 'better-auth.session_token'
const DONT_REMEMBER = 'better-auth.dont_remember'
const PASSWORD = 'correct horse battery'
const T0 = Date.parse('2030-01-15T10:00:00.000Z')
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Unauthorized' }
// What a browser on the application sends with every POST (the CSRF check wants it with cookies).
const ORIGIN = 'http://localhost:3000'
const SESSION_KEYS = [
  // The organization plugin's session fields, listed as better-auth lists them.
  'activeOrganizationId',
  'activeTeamId',
  // Where a trusted proxy placed the device (null without one).
  'city',
  'country',
  'createdAt',
  'expiresAt',
  'id',
  'impersonatedBy',
  'ipAddress',
  'token',
  'updatedAt',
  'userAgent',
  'userId',
]

const sign = (value: string) => createHmac('sha256', SECRET).update(value).digest('base64')
const signedCookie = (token: string) => `${COOKIE}=${encodeURIComponent(`${token}.${sign(token)}`)}`

describeEachDatabase('listing and ending sessions', (_fresh, kind) => {
  let tessera: TestTessera
  let now = T0
  beforeEach(async () => {
    now = T0
    tessera = await startTessera({ kind, env: { AUTH_SECRET: SECRET }, clock: () => new Date(now) })
  })
  afterEach(() => tessera.cleanup())

  const { signedUp, signedIn } = devicesFor(() => tessera, PASSWORD)

  const sessionIds = async () =>
    (await tessera.ctx.db.selectFrom('sessions').select('id').orderBy('id').execute()).map((row) => row.id)

  const eventTypes = async () => (await tessera.store.readAll(START, 1000)).map((event) => event.type)

  it('answers 401 UNAUTHORIZED to session routes without a session', async () => {
    const routes = [
      ['GET', '/list-sessions', undefined],
      ['POST', '/revoke-session', { token: 'x' }],
      ['POST', '/revoke-sessions', {}],
      ['POST', '/revoke-other-sessions', {}],
    ] as const
    const { token } = await signedUp()
    for (const [method, path, body] of routes) {
      const unsigned: Record<string, string> = { origin: ORIGIN, cookie: `${COOKIE}=${token}` }
      for (const headers of [{}, unsigned]) {
        const response = await tessera.api.request(method, path, body, headers)
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(401)
        expect(response.json).toEqual(UNAUTHORIZED)
      }
    }
  })

  it('lists the live sessions of the caller only, without token hashes or raw tokens', async () => {
    const laptop = await signedUp()
    const phone = await signedIn()
    await signedUp('bob@example.com')
    const response = await laptop.call('GET', '/list-sessions')
    expect(response.status).toBe(200)
    const listed = response.json as Record<string, unknown>[]
    expect(listed).toHaveLength(2)
    for (const session of listed) expect(Object.keys(session).sort()).toEqual(SESSION_KEYS)
    const ids = [(await laptop.session())?.session.id, (await phone.session())?.session.id]
    expect(listed.map((session) => session.id).sort()).toEqual(ids.sort())
    expect(response.body).not.toContain(laptop.token)
    expect(response.body).not.toContain(phone.token)
    expect(response.body.toLowerCase()).not.toMatch(/token_?hash/)
  })

  it("changes nothing when revoking another user's session, yet answers {status:true}", async () => {
    const ada = await signedUp()
    const bob = await signedUp('bob@example.com')
    const bobSession = await bob.session()
    for (const token of [bob.token, bobSession?.session.id]) {
      const response = await ada.call('POST', '/revoke-session', { token })
      expect(response.status).toBe(200)
      expect(response.json).toEqual({ status: true })
    }
    expect((await bob.session())?.session.id).toBe(bobSession?.session.id)
    expect(await eventTypes()).not.toContain('session.revoked')
  })

  it('revokes one of its own sessions by its token or by the id list-sessions gives', async () => {
    const laptop = await signedUp()
    const phone = await signedIn()
    const tablet = await signedIn()
    expect((await laptop.call('POST', '/revoke-session', { token: phone.token })).json).toEqual({
      status: true,
    })
    expect(await phone.session()).toBeNull()
    const tabletId = (await tablet.session())?.session.id
    expect((await laptop.call('POST', '/revoke-session', { token: tabletId })).json).toEqual({ status: true })
    expect(await tablet.session()).toBeNull()
    expect((await laptop.session())?.session.token).toBe(laptop.token)
  })

  it('revoke-other-sessions keeps only the current session', async () => {
    const laptop = await signedUp()
    const phone = await signedIn()
    const tablet = await signedIn()
    const bob = await signedUp('bob@example.com')
    const response = await laptop.call('POST', '/revoke-other-sessions', {})
    expect(response.json).toEqual({ status: true })
    expect(await phone.session()).toBeNull()
    expect(await tablet.session()).toBeNull()
    const current = await laptop.session()
    expect(current?.session.token).toBe(laptop.token)
    expect(((await laptop.call('GET', '/list-sessions')).json as { id: string }[]).map((s) => s.id)).toEqual([
      current?.session.id,
    ])
    expect(await bob.session()).not.toBeNull()
  })

  it('revoke-sessions ends every session of the caller, the current one too', async () => {
    const laptop = await signedUp()
    const phone = await signedIn()
    const bob = await signedUp('bob@example.com')
    expect((await laptop.call('POST', '/revoke-sessions')).json).toEqual({ status: true })
    expect(await laptop.session()).toBeNull()
    expect(await phone.session()).toBeNull()
    expect(await bob.session()).not.toBeNull()
    expect(await sessionIds()).toEqual([(await bob.session())?.session.id])
  })

  it('signs out: the session ends and both cookies are cleared; without a session it still succeeds', async () => {
    const anonymous = await tessera.api.request('POST', '/sign-out')
    expect(anonymous.status).toBe(200)
    expect(anonymous.json).toEqual({ success: true })
    expect((await tessera.api.request('POST', '/sign-out', {})).json).toEqual({ success: true })

    const kiosk = await signedUp('ada@example.com', { rememberMe: false })
    // A cookie-carrying POST from another site, or from nowhere, is refused, as better-auth does.
    const foreign = await tessera.api.request(
      'POST',
      '/sign-out',
      {},
      { origin: 'https://evil.example', cookie: kiosk.jar.header() },
    )
    expect(foreign.status).toBe(403)
    expect(foreign.json).toEqual({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
    // Raw inject: the test client would add our own Origin to a cookie-bearing POST.
    const nowhere = await tessera.app?.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: kiosk.jar.header() },
    })
    expect(nowhere?.statusCode).toBe(403)
    expect(nowhere?.json()).toEqual({ code: 'MISSING_OR_NULL_ORIGIN', message: 'Missing or null Origin' })
    expect(await kiosk.session()).not.toBeNull()

    const response = await kiosk.call('POST', '/sign-out', {})
    expect(response.json).toEqual({ success: true })
    for (const name of [COOKIE, DONT_REMEMBER]) {
      expect(response.setCookie.find((line) => line.startsWith(`${name}=`))).toMatch(/Max-Age=0/)
      expect(kiosk.jar.get(name)).toBeUndefined()
    }
    expect(await sessionIds()).toEqual([])
    const replay = await tessera.api.request('GET', '/get-session', undefined, {
      cookie: signedCookie(kiosk.token),
    })
    expect(replay.json).toBeNull()
  })
})
