/// POST /sign-in/email over HTTP: one indistinguishable 401 for every failure, the answer's shape,
/// callbackURL, remember-me (cookie and session lifetime), and the metadata every event carries.

import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { describeEachDatabase } from '../support/databases.js'
import { startTessera, type TestClient, type TestTessera } from '../support/tessera.js'

const SECRET = 'sign-in-conformance-secret-0123456789abcdef'
const COOKIE = 'better-auth.session_token'
const DONT_REMEMBER = 'better-auth.dont_remember'
const PASSWORD = 'correct horse battery'
const T0 = Date.parse('2030-01-15T10:00:00.000Z')
const DAY = 86_400_000
const INVALID = { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }

type Answer = Awaited<ReturnType<TestClient['request']>>
type SignInAnswer = { redirect: boolean; token: string; url?: string; user: { id: string; email: string } }

const setCookies = (answer: Answer): string[] => {
  const value = answer.headers['set-cookie']
  return value === undefined ? [] : Array.isArray(value) ? value : [String(value)]
}

const cookieLine = (answer: Answer, name: string): string | undefined =>
  setCookies(answer).find((line) => line.startsWith(`${name}=`))

const cookieValue = (answer: Answer, name: string): string | undefined =>
  cookieLine(answer, name)
    ?.split(';')[0]
    ?.slice(name.length + 1)

const sign = (value: string) => createHmac('sha256', SECRET).update(value).digest('base64')

describeEachDatabase('POST /sign-in/email', (_fresh, kind) => {
  let tessera: TestTessera
  let now = T0
  beforeEach(async () => {
    now = T0
    tessera = await startTessera({ kind, env: { AUTH_SECRET: SECRET }, clock: () => new Date(now) })
    const signUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(signUp.status).toBe(200)
  })
  afterEach(() => tessera.cleanup())

  const signIn = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    tessera.api.request(
      'POST',
      '/sign-in/email',
      { email: 'ada@example.com', password: PASSWORD, ...body },
      headers,
    )

  const sessionRow = async (token: string) => {
    const session = await tessera.api.request('GET', '/get-session?disableRefresh=true', undefined, {
      cookie: `${COOKIE}=${encodeURIComponent(`${token}.${sign(token)}`)}`,
    })
    return session.json as { session: { id: string; expiresAt: string } } | null
  }

  it('answers every failure with the same 401 and no cookie', async () => {
    const failures = [
      { password: 'wrong password!' },
      { password: '' },
      { password: PASSWORD.toUpperCase() },
      { email: 'nobody@example.com' },
    ]
    for (const failure of failures) {
      const response = await signIn(failure)
      expect(response.status, JSON.stringify(failure)).toBe(401)
      expect(response.json).toEqual(INVALID)
      expect(setCookies(response)).toEqual([])
    }
    expect(await tessera.ctx.db.selectFrom('sessions').selectAll().execute()).toHaveLength(1)
  })

  it("answers a malformed email 400 'Invalid email', as better-auth does, whatever the password", async () => {
    for (const email of ['not-an-email', '', 'ada@example.com.', 'ada@@example.com']) {
      for (const password of [PASSWORD, 'wrong password!']) {
        const response = await signIn({ email, password })
        expect(response.status, email).toBe(400)
        expect(response.json).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' })
        expect(setCookies(response)).toEqual([])
      }
    }
  })

  it('signs in with the email in any case: {redirect:false, token, user}, a 7-day session and cookie', async () => {
    const response = await signIn({ email: 'ADA@Example.com' })
    expect(response.status).toBe(200)
    const answer = response.json as SignInAnswer
    expect(Object.keys(answer).sort()).toEqual(['redirect', 'token', 'user'])
    expect(answer).toMatchObject({
      redirect: false,
      user: { email: 'ada@example.com', emailVerified: false },
    })
    expect(answer.token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(response.body.toLowerCase()).not.toMatch(/password|token_?hash/)
    expect(response.headers.location).toBeUndefined()

    expect(cookieValue(response, COOKIE)).toBe(encodeURIComponent(`${answer.token}.${sign(answer.token)}`))
    expect(cookieLine(response, COOKIE)).toMatch(/Max-Age=604800/)
    expect(cookieLine(response, DONT_REMEMBER)).toBeUndefined()
    expect((await sessionRow(answer.token))?.session.expiresAt).toBe(new Date(T0 + 7 * DAY).toISOString())
  })

  it('answers redirect:true and the url when given a callbackURL', async () => {
    const response = await signIn({ callbackURL: '/dashboard?tab=1' })
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({
      redirect: true,
      url: '/dashboard?tab=1',
      user: { email: 'ada@example.com' },
    })
    expect(response.headers.location).toBe('/dashboard?tab=1')
  })

  it('with rememberMe:false sets a cookie without Max-Age, a dont_remember cookie, and a 1-day session', async () => {
    const response = await signIn({ rememberMe: false })
    expect(response.status).toBe(200)
    const { token } = response.json as SignInAnswer
    const line = cookieLine(response, COOKIE)
    expect(line).toMatch(/HttpOnly/)
    expect(line).not.toMatch(/max-age|expires/i)
    expect(cookieValue(response, DONT_REMEMBER)).toBe(encodeURIComponent(`true.${sign('true')}`))
    expect((await sessionRow(token))?.session.expiresAt).toBe(new Date(T0 + DAY).toISOString())
  })

  it('starts a new session on every sign-in', async () => {
    const first = (await signIn({})).json as SignInAnswer
    const second = (await signIn({})).json as SignInAnswer
    expect(first.token).not.toBe(second.token)
    const [a, b] = [await sessionRow(first.token), await sessionRow(second.token)]
    expect(a?.session.id).toBeDefined()
    expect(a?.session.id).not.toBe(b?.session.id)
    expect(await tessera.ctx.db.selectFrom('sessions').selectAll().execute()).toHaveLength(3)
  })
})

describe('event metadata (pglite)', () => {
  let tessera: TestTessera
  const now = T0 + 1234
  beforeEach(async () => {
    tessera = await startTessera({ env: { AUTH_SECRET: SECRET }, clock: () => new Date(now) })
  })
  afterEach(() => tessera.cleanup())

  it('records actor, ip, userAgent, correlationId, causationId and at on every event', async () => {
    const headers = { 'user-agent': 'conformance-browser/1.0' }
    const credentials = { email: 'ada@example.com', password: PASSWORD }
    const signUp = await tessera.api.request(
      'POST',
      '/sign-up/email',
      { name: 'Ada', ...credentials },
      headers,
    )
    const userId = (signUp.json as { user: { id: string } }).user.id
    expect((await tessera.api.request('POST', '/sign-in/email', credentials, headers)).status).toBe(200)

    const events = await tessera.store.readAll(START, 100)
    expect(events.map((event) => event.type)).toEqual([
      'user.registered',
      'session.started',
      'session.started',
    ])
    for (const event of events) {
      expect(Object.keys(event.metadata).sort()).toEqual([
        'actor',
        'at',
        'causationId',
        'correlationId',
        'ip',
        'userAgent',
      ])
      expect(event.metadata).toMatchObject({
        ip: '127.0.0.1',
        userAgent: 'conformance-browser/1.0',
        // Unique beyond this process: a per-process counter would repeat after a restart.
        correlationId: expect.stringMatching(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        ),
        at: new Date(now).toISOString(),
      })
    }
    const [registered, signUpSession, signInSession] = events
    expect(registered?.metadata.actor).toEqual({ type: 'anonymous' })
    expect(signUpSession?.metadata.actor).toEqual({ type: 'user', userId })
    expect(signInSession?.metadata.actor).toEqual({ type: 'user', userId })
    // One request, one correlation id; the next request has its own.
    expect(signUpSession?.metadata.correlationId).toBe(registered?.metadata.correlationId)
    expect(signInSession?.metadata.correlationId).not.toBe(registered?.metadata.correlationId)
  })
})
