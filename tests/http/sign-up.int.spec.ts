/// POST /sign-up/email over HTTP: the answer's shape, the signed session cookie and its attributes,
/// the spec's errors (exact code, status and message), and one user out of concurrent sign-ups.

import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeEachDatabase } from '../support/databases.js'
import { startTessera, type TestClient, type TestTessera } from '../support/tessera.js'

const SECRET = 'sign-up-conformance-secret-0123456789abcdef'
const COOKIE = 'better-auth.session_token'
const DONT_REMEMBER = 'better-auth.dont_remember'
const PASSWORD = 'correct horse battery'
const T0 = Date.parse('2030-01-15T10:00:00.000Z')
const USER_KEYS = [
  'banExpires',
  'banReason',
  'banned',
  'createdAt',
  'displayUsername',
  'email',
  'emailVerified',
  'id',
  'image',
  'name',
  'role',
  'updatedAt',
  'username',
]

type SignUpAnswer = { token: string; user: Record<string, unknown> & { id: string; email: string } }
type Headers = Awaited<ReturnType<TestClient['request']>>['headers']

const setCookies = (headers: Headers): string[] => {
  const value = headers['set-cookie']
  return value === undefined ? [] : Array.isArray(value) ? value : [String(value)]
}

/** The Set-Cookie line for `name`, split into its raw value and its attributes. */
const cookieOf = (headers: Headers, name: string) => {
  const line = setCookies(headers).find((candidate) => candidate.startsWith(`${name}=`))
  if (!line) return undefined
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
  return { value: pair.slice(name.length + 1), attributes, line }
}

const sign = (value: string) => createHmac('sha256', SECRET).update(value).digest('base64')

const expectNoSecrets = (body: string) => {
  expect(body).not.toContain(PASSWORD)
  expect(body.toLowerCase()).not.toMatch(/token_?hash|password/)
}

describeEachDatabase('POST /sign-up/email', (_fresh, kind) => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ kind, env: { AUTH_SECRET: SECRET }, clock: () => new Date(T0) })
  })
  afterEach(() => tessera.cleanup())

  const signUp = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    tessera.api.request(
      'POST',
      '/sign-up/email',
      { name: 'Ada Lovelace', password: PASSWORD, ...body },
      headers,
    )

  it('answers {token, user} with the lowercased email and nothing secret', async () => {
    const response = await signUp({ email: ' Ada@Example.COM ', image: 'https://example.com/ada.png' })
    expect(response.status).toBe(200)
    const { token, user } = response.json as SignUpAnswer
    expect(Object.keys(response.json as object).sort()).toEqual(['token', 'user'])
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(Object.keys(user).sort()).toEqual(USER_KEYS)
    expect(user).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      image: 'https://example.com/ada.png',
      emailVerified: false,
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
      username: null,
      displayUsername: null,
      role: 'user',
      banned: false,
      banReason: null,
      banExpires: null,
    })
    expectNoSecrets(response.body)
  })

  it('sets a signed, HttpOnly, SameSite=Lax session cookie for 7 days that get-session accepts', async () => {
    const response = await signUp({ email: 'ada@example.com' })
    const { token, user } = response.json as SignUpAnswer
    const cookie = cookieOf(response.headers, COOKIE)
    expect(cookie?.value).toBe(encodeURIComponent(`${token}.${sign(token)}`))
    expect(decodeURIComponent(cookie?.value ?? '')).toMatch(/^[A-Za-z0-9]{32}\.[A-Za-z0-9+/]{43}=$/)
    expect(cookie?.attributes).toEqual(
      expect.arrayContaining(['Max-Age=604800', 'Path=/', 'HttpOnly', 'SameSite=Lax']),
    )
    expect(cookie?.line).not.toMatch(/;\s*Secure/i)
    expect(cookieOf(response.headers, DONT_REMEMBER)).toBeUndefined()

    const session = await tessera.api.request('GET', '/get-session', undefined, {
      cookie: `${COOKIE}=${cookie?.value}`,
    })
    expect(session.status).toBe(200)
    expect(session.json).toMatchObject({
      session: { token, userId: user.id, expiresAt: new Date(T0 + 604_800_000).toISOString() },
      user: { id: user.id, email: 'ada@example.com' },
    })
    // Sign-up answers with the row its registration makes without reading it back: it is the read model's.
    expect((session.json as SignUpAnswer).user).toEqual(user)
    expectNoSecrets(session.body)
  })

  it('stores the session token only as a hash', async () => {
    const { token } = (await signUp({ email: 'ada@example.com' })).json as SignUpAnswer
    const rows = await tessera.ctx.db.selectFrom('sessions').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(token)
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('refuses a second account for the same email in any case with 422', async () => {
    expect((await signUp({ email: 'ada@example.com' })).status).toBe(200)
    for (const email of ['ada@example.com', 'ADA@EXAMPLE.COM', 'Ada@Example.Com']) {
      const duplicate = await signUp({ email, password: 'another password' })
      expect(duplicate.status).toBe(422)
      expect(duplicate.json).toEqual({
        code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
        message: 'User already exists. Use another email.',
      })
      expect(setCookies(duplicate.headers)).toEqual([])
    }
    const users = await tessera.ctx.db.selectFrom('users').select('email').execute()
    expect(users).toEqual([{ email: 'ada@example.com' }])
  })

  it('gives exactly one account to 20 concurrent sign-ups with one email', async () => {
    const attempts = Array.from({ length: 20 }, (_, i) =>
      signUp({ email: i % 2 === 0 ? 'race@example.com' : 'RACE@example.com', name: `Racer ${i}` }),
    )
    const responses = await Promise.all(attempts)
    const statuses = responses.map((response) => response.status).sort()
    expect(statuses).toEqual([200, ...Array<number>(19).fill(422)])
    for (const response of responses.filter((r) => r.status === 422))
      expect((response.json as { code: string }).code).toBe('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
    const users = await tessera.ctx.db.selectFrom('users').select('email').execute()
    expect(users).toEqual([{ email: 'race@example.com' }])
  })
})

describe('POST /sign-up/email: validation (pglite)', () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ env: { AUTH_SECRET: SECRET }, clock: () => new Date(T0) })
  })
  afterEach(() => tessera.cleanup())

  const signUp = (body: Record<string, unknown>) =>
    tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
      ...body,
    })

  it.each(['plainaddress', 'ada@', '@example.com', 'ada@@example.com', 'ada lovelace@example.com', ''])(
    'refuses the email %j with 400 INVALID_EMAIL',
    async (email) => {
      const response = await signUp({ email })
      expect(response.status).toBe(400)
      expect(response.json).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' })
      expect(setCookies(response.headers)).toEqual([])
    },
  )

  it('refuses passwords of 7 and 129 characters, accepts 8 and 128', async () => {
    const short = await signUp({ password: 'a'.repeat(7) })
    expect(short.status).toBe(400)
    expect(short.json).toEqual({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short' })
    const long = await signUp({ password: 'a'.repeat(129) })
    expect(long.status).toBe(400)
    expect(long.json).toEqual({ code: 'PASSWORD_TOO_LONG', message: 'Password too long' })
    expect(await tessera.ctx.db.selectFrom('users').selectAll().execute()).toEqual([])

    expect((await signUp({ email: 'eight@example.com', password: 'a'.repeat(8) })).status).toBe(200)
    expect((await signUp({ email: 'max@example.com', password: 'a'.repeat(128) })).status).toBe(200)
  })

  it('with rememberMe:false sets a browser-session cookie, a dont_remember cookie and a 1-day session', async () => {
    const response = await signUp({ rememberMe: false })
    expect(response.status).toBe(200)
    const { token } = response.json as SignUpAnswer
    const cookie = cookieOf(response.headers, COOKIE)
    expect(cookie?.value).toBe(encodeURIComponent(`${token}.${sign(token)}`))
    expect(cookie?.line).not.toMatch(/max-age|expires/i)
    expect(cookie?.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']))
    const dontRemember = cookieOf(response.headers, DONT_REMEMBER)
    expect(dontRemember?.value).toBe(encodeURIComponent(`true.${sign('true')}`))

    const rows = await tessera.ctx.db.selectFrom('sessions').select(['expires_at', 'remember_me']).execute()
    expect(rows).toEqual([{ expires_at: new Date(T0 + 86_400_000), remember_me: false }])
  })
})

describe('POST /sign-up/email behind https (pglite)', () => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ env: { AUTH_SECRET: SECRET, BASE_URL: 'https://auth.example.com' } })
  })
  afterEach(() => tessera.cleanup())

  it('marks the cookies Secure and names them with the __Secure- prefix', async () => {
    const response = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
      rememberMe: false,
    })
    expect(response.status).toBe(200)
    expect(cookieOf(response.headers, COOKIE)).toBeUndefined()
    const cookie = cookieOf(response.headers, `__Secure-${COOKIE}`)
    expect(cookie?.attributes).toEqual(
      expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/']),
    )
    expect(cookieOf(response.headers, `__Secure-${DONT_REMEMBER}`)?.attributes).toContain('Secure')

    const secure = await tessera.api.request('GET', '/get-session', undefined, {
      cookie: `__Secure-${COOKIE}=${cookie?.value}`,
    })
    expect(secure.json).toMatchObject({ user: { email: 'ada@example.com' } })
    // The unprefixed name is not the session cookie on https.
    const plain = await tessera.api.request('GET', '/get-session', undefined, {
      cookie: `${COOKIE}=${cookie?.value}`,
    })
    expect(plain.json).toBeNull()
  })
})
