/// Hostile input that the schemas let through: a NUL character is a valid JSON string character but
/// PostgreSQL text cannot hold it. Accepted into the log, it would stop the projector for good (every
/// later command waits for a read model that can never apply the event), so it is refused at the edge.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cookieJar } from '../support/cookies.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

describe('NUL characters in input (pglite)', () => {
  let tessera: TestTessera
  let cookie: string

  beforeAll(async () => {
    tessera = await startTessera()
    const signUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(signUp.status).toBe(200)
    const jar = cookieJar()
    jar.store(signUp.headers['set-cookie'])
    cookie = jar.header()
  })
  afterAll(() => tessera.cleanup())

  /** The service still records and projects: a fresh sign-up works and is readable at once. */
  const expectServiceAlive = async (email: string) => {
    const response = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Bo',
      email,
      password: PASSWORD,
    })
    expect(response.status, response.body).toBe(200)
  }

  it.each([
    ['name', { name: 'A\u0000B', image: null }],
    ['image', { name: 'Ann', image: 'https://img.example.com/\u0000.png' }],
  ])('refuses a sign-up with a NUL in %s: 400, and the projector keeps going', async (field, fields) => {
    const response = await tessera.api.request('POST', '/sign-up/email', {
      ...fields,
      email: `nul-${field}@example.com`,
      password: PASSWORD,
    })
    expect(response.status, response.body).toBe(400)
    expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect((response.json as { message: string }).message).toContain(`body.${field}`)
    await expectServiceAlive(`after-${field}@example.com`)
  })

  it('refuses update-user with a NUL in the name: 400, and the projector keeps going', async () => {
    const response = await tessera.api.request('POST', '/update-user', { name: 'x\u0000' }, { cookie })
    expect(response.status, response.body).toBe(400)
    expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' })
    const session = await tessera.api.request('GET', '/get-session', undefined, { cookie })
    expect((session.json as { user: { name: string } }).user.name).toBe('Ada')
    await expectServiceAlive('after-update@example.com')
  })

  it('answers revoke-session with a NUL in the token with 400, not 500', async () => {
    const response = await tessera.api.request('POST', '/revoke-session', { token: 'a\u0000b' }, { cookie })
    expect(response.status, response.body).toBe(400)
    expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' })
  })

  it('refuses a NUL nested deep in a body', async () => {
    const response = await tessera.api.request('POST', '/sign-in/email', {
      email: 'ada@example.com',
      password: PASSWORD,
      extra: [{ deep: 'x\u0000' }],
    })
    expect(response.status, response.body).toBe(400)
    expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' })
  })
})

/** Hostile values for every field of every route: none may reach a 500 or stop the projector. */
describe('hostile field values never give a 500 (pglite)', () => {
  const HOSTILE: unknown[] = [
    'x'.repeat(5000),
    '\u0000',
    'a\u0000b@example.com',
    '\ud800',
    '💥'.repeat(300),
    -1,
    1e308,
    true,
    null,
    [],
    ['a'],
    {},
    { a: { b: 1 } },
    '%00',
    '%E0%A4%A',
    'javascript:alert(1)',
    '//evil.com',
    '/\\evil.com',
    'http://[::1',
    ' ',
    '',
  ]
  const POSTS: Record<string, Record<string, unknown>> = {
    '/sign-up/email': {
      name: 'B',
      email: 'b@example.com',
      password: PASSWORD,
      image: null,
      callbackURL: '/',
    },
    '/sign-in/email': { email: 'ada@example.com', password: PASSWORD, callbackURL: '/', rememberMe: true },
    '/revoke-session': { token: 'tok' },
    '/send-verification-email': { email: 'ada@example.com', callbackURL: '/' },
    '/request-password-reset': { email: 'ada@example.com', redirectTo: '/' },
    '/reset-password': { newPassword: PASSWORD, token: 'tok' },
    '/update-user': { name: 'Ada', image: null },
    '/change-password': {
      newPassword: PASSWORD,
      currentPassword: 'wrong password',
      revokeOtherSessions: false,
    },
    '/change-email': { newEmail: 'c@example.com', callbackURL: '/' },
  }
  let tessera: TestTessera
  let cookie: string

  beforeAll(async () => {
    tessera = await startTessera()
    const signUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
    })
    const jar = cookieJar()
    jar.store(signUp.headers['set-cookie'])
    cookie = jar.header()
  })
  afterAll(() => tessera.cleanup())

  it.each(Object.keys(POSTS))('POST %s', async (path) => {
    const valid = POSTS[path] ?? {}
    const failures: string[] = []
    const signedOutOrIn: Record<string, string>[] = [{}, { cookie }]
    for (const headers of signedOutOrIn)
      for (const field of Object.keys(valid))
        for (const value of HOSTILE) {
          const response = await tessera.api.request('POST', path, { ...valid, [field]: value }, headers)
          if (response.status >= 500) failures.push(`${field}=${JSON.stringify(value)}: ${response.status}`)
        }
    expect(failures).toEqual([])
    const alive = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Bo',
      email: `alive-${path.replaceAll('/', '')}@example.com`,
      password: PASSWORD,
    })
    expect(alive.status, alive.body).toBe(200)
  })
})
