/// Issue 32's attacker probe, items 24 to 29 (and 22): a NUL in a query string or header, deep or
/// large free-form JSON, a callbackURL beyond Latin-1, framing, and caching of someone's answers.
/// Each answers a clear 4xx or the right header, never a 500.

import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Browser, browserFor } from '../support/browser.js'
import { signUp } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const portalDir = join(import.meta.dirname, '../../web/dist')

/** `{ a: { a: ... { a: leaf } } }`, `levels` objects deep. */
const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf
  for (let level = 0; level < levels; level++) value = { a: value }
  return value
}

describe('hardening from the attacker probe (pglite)', { timeout: 120_000 }, () => {
  let tessera: TestTessera
  let ada: Browser & { userId: string; email: string }

  beforeAll(async () => {
    tessera = await startTessera({ portalDir, features: { apiKey: { enableMetadata: true } } })
    ada = await signUp(tessera, 'ada')
    expect((await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })).status).toBe(200)
  }, 300_000)
  afterAll(() => tessera?.cleanup())

  const expectValidationError = (answer: { status: number; json: unknown }, field: string) => {
    expect(answer.status, JSON.stringify(answer.json)).toBe(400)
    expect(answer.json).toMatchObject({ code: 'VALIDATION_ERROR' })
    expect((answer.json as { message: string }).message).toContain(`[${field}]`)
  }

  describe('a NUL outside the body (item 24)', () => {
    it('answers 400 for %00 in a query parameter, signed out and signed in', async () => {
      const preview = await browserFor(tessera).get('/organization/invitation-preview?id=abc%00def')
      expectValidationError(preview, 'query.id')
      expect((preview.json as { message: string }).message).toBe(
        'Invalid query parameters: [query.id] must not contain a NUL character',
      )
      expectValidationError(
        await ada.get('/organization/get-full-organization?organizationSlug=a%00'),
        'query.organizationSlug',
      )
      expectValidationError(await ada.get('/list-sessions?x=%00'), 'query.x')
    })

    it('answers 400 for a NUL in a path parameter or a cookie', async () => {
      expectValidationError(
        await browserFor(tessera).get('/reset-password/abc%00?callbackURL=/x'),
        'params.token',
      )
      const withCookie = await tessera.api.request('GET', '/get-session', undefined, {
        cookie: 'better-auth.session_token=ab%00cd',
      })
      expectValidationError(withCookie, 'cookies.better-auth.session_token')
    })
  })

  describe('free-form JSON (item 25)', () => {
    const update = (metadata: unknown) => ada.post('/organization/update', { data: { metadata } })

    it('stores metadata 8 levels deep and refuses 9, naming the field', async () => {
      const stored = await update(nested(7, { deep: true }))
      expect(stored.status, stored.body).toBe(200)
      const refused = await update(nested(9))
      expectValidationError(refused, 'body.data.metadata')
      expect((refused.json as { message: string }).message).toContain('at most 8 levels')
    })

    it('refuses metadata over 8 KB, and one nested 6,000 deep or with a NUL 40 deep, with a 400', async () => {
      const large = await update({ text: 'x'.repeat(8 * 1024) })
      expectValidationError(large, 'body.data.metadata')
      expect((large.json as { message: string }).message).toContain('8192 bytes')
      // Sent as raw text: JSON.stringify would manage, but the point is what the server parses.
      const deepBody = `{"data":{"metadata":${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}}}`
      const sent = await tessera.app?.inject({
        method: 'POST',
        url: '/api/auth/organization/update',
        headers: {
          cookie: ada.jar.header(),
          origin: tessera.ctx.config.baseOrigin,
          'content-type': 'application/json',
        },
        payload: deepBody,
      })
      expect(sent?.statusCode, sent?.body).toBe(400)
      expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({ code: 'VALIDATION_ERROR' })
      expectValidationError(await update(nested(40, 'x\u0000')), 'body.data.metadata')
      // The organization still reads, with what was stored last.
      const full = await ada.get('/organization/get-full-organization')
      expect(full.status).toBe(200)
    })

    it('bounds API-key metadata and an operator-free body alike; a body nested past 32 is refused', async () => {
      expectValidationError(await ada.post('/api-key/create', { metadata: nested(12) }), 'body.metadata')
      const fine = await ada.post('/api-key/create', { metadata: { plan: 'pro', tags: ['a', 'b'] } })
      expect(fine.status, fine.body).toBe(200)
      expectValidationError(await ada.post('/sign-in/email', { extra: nested(40) }), 'body')
    })
  })

  it('signs in with a callbackURL beyond Latin-1: 200, the cookie, and an encoded Location (item 26)', async () => {
    const answer = await browserFor(tessera).post('/sign-in/email', {
      email: ada.email,
      password: 'correct horse battery',
      callbackURL: '/日本/dashboard?q=ü ß',
    })
    expect(answer.status, answer.body).toBe(200)
    expect(answer.headers.location).toBe('/%E6%97%A5%E6%9C%AC/dashboard?q=%C3%BC%20%C3%9F')
    expect(answer.setCookie.some((cookie) => cookie.startsWith('better-auth.session_token='))).toBe(true)
    expect((answer.json as { url: string }).url).toBe('/日本/dashboard?q=ü ß')
  })

  describe('framing (item 28)', () => {
    it('serves the portal with a Content-Security-Policy and X-Frame-Options: DENY', async () => {
      for (const path of ['/', '/account/security']) {
        const page = await tessera.app?.inject({ method: 'GET', url: path })
        expect(page?.statusCode).toBe(200)
        const policy = String(page?.headers['content-security-policy'])
        expect(policy).toContain("frame-ancestors 'none'")
        expect(policy).toContain("script-src 'self'")
        expect(policy).not.toMatch(/script-src[^;]*unsafe/)
        expect(page?.headers['x-frame-options']).toBe('DENY')
      }
      const api = await browserFor(tessera).get('/ok')
      expect(api.headers['x-frame-options']).toBe('DENY')
      expect(api.headers['content-security-policy']).toBe("frame-ancestors 'none'")
    })

    it('the production build has no inline script, so script-src self is all it needs', () => {
      expect(existsSync(join(portalDir, 'index.html'))).toBe(true)
      const html = readFileSync(join(portalDir, 'index.html'), 'utf8')
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      expect(scripts.length).toBeGreaterThan(0)
      for (const [, attributes = '', body = ''] of scripts) {
        expect(body.trim()).toBe('')
        expect(attributes).toMatch(/src="\/(?!\/)/)
      }
      expect(html).not.toMatch(/\son[a-z]+=/i)
    })
  })

  describe('caching of answers that are someone’s (item 29)', () => {
    it('sends no-store on list-sessions and api-key/list, with a cookie or a bearer token', async () => {
      for (const path of ['/list-sessions', '/api-key/list', '/organization/list']) {
        const answer = await ada.get(path)
        expect(answer.status, path).toBe(200)
        expect(answer.headers['cache-control'], path).toBe('no-store')
      }
      const token = (await ada.session())?.session.token
      const bearer = await tessera.api.request('GET', '/list-sessions', undefined, {
        authorization: `Bearer ${token}`,
      })
      expect(bearer.status).toBe(200)
      expect(bearer.headers['cache-control']).toBe('no-store')
    })

    it('sends no-store with an API key and on a sign-in, not on an anonymous health check', async () => {
      const { key } = (await ada.post('/api-key/create', {})).json as { key: string }
      const byKey = await tessera.api.request('GET', '/get-session', undefined, { 'x-api-key': key })
      expect(byKey.headers['cache-control']).toBe('no-store')
      const signIn = await browserFor(tessera).post('/sign-in/email', {
        email: ada.email,
        password: 'correct horse battery',
      })
      expect(signIn.headers['cache-control']).toBe('no-store')
      expect((await browserFor(tessera).get('/ok')).headers['cache-control']).toBeUndefined()
    })
  })
})
