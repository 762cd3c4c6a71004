/// The origin check and trusted callback URLs over HTTP: which requests are refused, with which
/// catalogue answer, and which pass untouched.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cookieJar } from '../../tests/support/cookies.js'
import { startTessera, type TestTessera } from '../../tests/support/tessera.js'

const PASSWORD = 'correct horse battery'
const EMAIL = 'ada@example.com'
const BASE_ORIGIN = 'http://localhost:3000'

describe('origin check and trusted URLs', () => {
  let tessera: TestTessera
  let cookie: string

  beforeAll(async () => {
    tessera = await startTessera({
      env: {
        BASE_URL: BASE_ORIGIN,
        TRUSTED_ORIGINS: 'https://app.example.com,https://*.preview.example.org',
      },
    })
    const signUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada',
      email: EMAIL,
      password: PASSWORD,
    })
    expect(signUp.status).toBe(200)
    const jar = cookieJar()
    jar.store(signUp.headers['set-cookie'])
    cookie = jar.header()
  })
  afterAll(() => tessera.cleanup())

  const inject = async (
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body?: object | string,
  ) => {
    const app = tessera.app
    if (!app) throw new Error('no HTTP app')
    const response = await app.inject({
      method,
      url: `/api/auth${url}`,
      headers,
      ...(body !== undefined ? { payload: body } : {}),
    })
    return { status: response.statusCode, json: response.json() as unknown, headers: response.headers }
  }
  const signIn = (extra: Record<string, unknown> = {}, query = '') =>
    tessera.api.request('POST', `/sign-in/email${query}`, { email: EMAIL, password: PASSWORD, ...extra })

  describe('callback and redirect URLs', () => {
    it.each(['https://evil.com', '//evil.com', '/\\evil.com', 'https:evil.com', 'javascript:alert(1)'])(
      'refuses sign-in with callbackURL %s: 403 INVALID_CALLBACK_URL',
      async (callbackURL) => {
        const response = await signIn({ callbackURL })
        expect(response.status).toBe(403)
        expect(response.json).toEqual({ code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' })
        expect(response.headers.location).toBeUndefined()
        expect(response.headers['set-cookie']).toBeUndefined()
      },
    )

    it('refuses sign-up with an untrusted callbackURL before creating the user', async () => {
      const email = 'grace@example.com'
      const refused = await tessera.api.request('POST', '/sign-up/email', {
        name: 'Grace',
        email,
        password: PASSWORD,
        callbackURL: 'https://app.example.com@evil.com/',
      })
      expect(refused.status).toBe(403)
      expect(refused.json).toEqual({ code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' })
      const again = await tessera.api.request('POST', '/sign-up/email', {
        name: 'Grace',
        email,
        password: PASSWORD,
      })
      expect(again.status).toBe(200)
    })

    it.each([
      '/dashboard',
      'http://localhost:3000/account',
      'https://app.example.com/welcome',
      'https://pr-7.preview.example.org/',
    ])('accepts callbackURL %s', async (callbackURL) => {
      const response = await signIn({ callbackURL })
      expect(response.status).toBe(200)
      expect(response.json).toMatchObject({ redirect: true, url: callbackURL })
    })

    it.each([
      ['callbackURL', 'INVALID_CALLBACK_URL', 'Invalid callbackURL'],
      ['redirectTo', 'INVALID_REDIRECT_URL', 'Invalid redirectURL'],
      ['errorCallbackURL', 'INVALID_ERROR_CALLBACK_URL', 'Invalid errorCallbackURL'],
      ['newUserCallbackURL', 'INVALID_NEW_USER_CALLBACK_URL', 'Invalid newUserCallbackURL'],
    ])('checks %s in the query string too', async (field, code, message) => {
      const response = await signIn({}, `?${field}=${encodeURIComponent('https://evil.com')}`)
      expect(response.status).toBe(403)
      expect(response.json).toEqual({ code, message })
      expect((await signIn({}, `?${field}=%2Fdashboard`)).status).toBe(200)
    })

    it('checks GET requests as well', async () => {
      // GET /ok takes no query of its own, so nothing but the hook looks at callbackURL.
      const response = await inject('GET', `/ok?callbackURL=${encodeURIComponent('//evil.com')}`, {})
      expect(response.status).toBe(403)
      expect(response.json).toMatchObject({ code: 'INVALID_CALLBACK_URL' })
      expect((await inject('GET', '/ok?callbackURL=%2Fdashboard', {})).status).toBe(200)
    })

    it('leaves schema errors first: a malformed body is still a 400', async () => {
      const response = await tessera.api.request('POST', '/sign-in/email', {
        email: EMAIL,
        callbackURL: 'https://evil.com',
      })
      expect(response.status).toBe(400)
      expect(response.json).toMatchObject({ code: 'VALIDATION_ERROR' })
    })
  })

  describe('origin of cookie-bearing requests', () => {
    it('refuses a foreign Origin with 403 INVALID_ORIGIN, before reading the body', async () => {
      for (const origin of ['https://evil.com', 'https://app.example.com.evil.io', 'http://localhost:3001']) {
        const response = await inject('POST', '/sign-out', { cookie, origin })
        expect(response.status).toBe(403)
        expect(response.json).toEqual({ code: 'INVALID_ORIGIN', message: 'Invalid origin' })
      }
      const garbage = await inject(
        'POST',
        '/sign-out',
        { cookie, origin: 'https://evil.com', 'content-type': 'application/json' },
        '{',
      )
      expect(garbage.json).toMatchObject({ code: 'INVALID_ORIGIN' })
    })

    it('refuses a null or missing Origin (and no Referer) with 403 MISSING_OR_NULL_ORIGIN', async () => {
      const requests: Record<string, string>[] = [
        { cookie },
        { cookie, origin: 'null' },
        { cookie, origin: 'null', referer: `${BASE_ORIGIN}/` },
      ]
      for (const headers of requests) {
        const response = await inject('POST', '/sign-out', headers)
        expect(response.status).toBe(403)
        expect(response.json).toEqual({ code: 'MISSING_OR_NULL_ORIGIN', message: 'Missing or null Origin' })
      }
    })

    it('falls back to the Referer when there is no Origin', async () => {
      expect(
        (await inject('POST', '/sign-out', { cookie, referer: 'https://evil.com/page' })).json,
      ).toMatchObject({
        code: 'INVALID_ORIGIN',
      })
      expect(
        (await inject('POST', '/list-sessions', { cookie, referer: `${BASE_ORIGIN}/account` })).status,
      ).not.toBe(403)
    })

    it('lets trusted origins through, the base URL, extra ones and patterns', async () => {
      for (const origin of [BASE_ORIGIN, 'https://app.example.com', 'https://a.b.preview.example.org']) {
        const response = await inject(
          'POST',
          '/sign-in/email',
          { cookie, origin },
          { email: EMAIL, password: PASSWORD },
        )
        expect(response.status).toBe(200)
      }
      const sameOrigin = await inject(
        'POST',
        '/sign-in/email',
        { cookie, origin: 'null', 'sec-fetch-site': 'same-origin' },
        {
          email: EMAIL,
          password: PASSWORD,
        },
      )
      expect(sameOrigin.status).toBe(200)
    })

    it('does not check other requests without cookies, nor GETs', async () => {
      const noCookie = await inject(
        'POST',
        '/request-password-reset',
        { origin: 'https://evil.com', 'content-type': 'application/json' },
        JSON.stringify({ email: EMAIL }),
      )
      expect(noCookie.status).toBe(200)
      const noHeaders = await inject('POST', '/sign-in/email', {}, { email: EMAIL, password: PASSWORD })
      expect(noHeaders.status).toBe(200)
      // A fresh session: signing in again with the device's cookie (as the tests above do) ends the
      // account's earlier session on that device (multi-session).
      const jar = cookieJar()
      jar.store(noHeaders.headers['set-cookie'])
      const get = await inject('GET', '/get-session', { cookie: jar.header(), origin: 'https://evil.com' })
      expect(get.status).toBe(200)
      expect(get.json).toMatchObject({ user: { email: EMAIL } })
    })
  })

  describe('login CSRF: sign-in and sign-up without cookies', () => {
    const credentials = { email: EMAIL, password: PASSWORD }
    const newAccount = (n: number) => ({ name: 'Eve', email: `forged${n}@example.com`, password: PASSWORD })

    it.each([
      [{ origin: 'https://evil.com' }, 'INVALID_ORIGIN', 'Invalid origin'],
      [{ referer: 'https://evil.com/login' }, 'INVALID_ORIGIN', 'Invalid origin'],
      [{ 'sec-fetch-mode': 'cors' }, 'MISSING_OR_NULL_ORIGIN', 'Missing or null Origin'],
      [
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
        'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED',
        'Cross-site navigation login blocked. This request appears to be a CSRF attack.',
      ],
    ])('refuses %j with 403 %s, and starts no session', async (headers, code, message) => {
      const signIn = await inject('POST', '/sign-in/email', headers, credentials)
      expect(signIn.status).toBe(403)
      expect(signIn.json).toEqual({ code, message })
      expect(signIn.headers['set-cookie']).toBeUndefined()
    })

    it('refuses a forged sign-up before creating the account', async () => {
      const forged = await inject('POST', '/sign-up/email', { origin: 'https://evil.com' }, newAccount(1))
      expect(forged.status).toBe(403)
      expect(forged.json).toMatchObject({ code: 'INVALID_ORIGIN' })
      // The address is still free: the same sign-up from a trusted page creates it.
      const fromPortal = await inject(
        'POST',
        '/sign-up/email',
        { origin: BASE_ORIGIN, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
        newAccount(1),
      )
      expect(fromPortal.status).toBe(200)
    })

    it('lets a trusted page, and a caller that shows no browser signs, sign in', async () => {
      const callers: Record<string, string>[] = [
        { origin: BASE_ORIGIN, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
        { origin: 'https://app.example.com' },
        { referer: `${BASE_ORIGIN}/sign-in` },
        {},
      ]
      for (const headers of callers) {
        const answer = await inject('POST', '/sign-in/email', headers, credentials)
        expect(answer.status, JSON.stringify(headers)).toBe(200)
      }
    })
  })
})
