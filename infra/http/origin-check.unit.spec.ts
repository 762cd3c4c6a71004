import { describe, expect, it } from 'vitest'
import { checkFirstLoginOrigin, checkOrigin } from './origin-check.js'

const config = {
  baseOrigin: 'http://localhost:3000',
  trustedOrigins: ['http://localhost:3000', 'https://*.example.com'],
}
const COOKIE = { cookie: 'better-auth.session_token=abc' }

const check = (method: string, headers: Record<string, string>) => checkOrigin({ method, headers }, config)

describe('checkOrigin', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('checks %s requests that carry cookies', (method) => {
    expect(check(method, { ...COOKIE, origin: 'https://evil.com' })).toBe('INVALID_ORIGIN')
    expect(check(method, { ...COOKIE, origin: 'http://localhost:3000' })).toBeNull()
  })

  it.each(['GET', 'HEAD', 'OPTIONS'])('leaves %s alone', (method) => {
    expect(check(method, { ...COOKIE, origin: 'https://evil.com' })).toBeNull()
  })

  it('leaves requests without cookies alone, whatever their origin', () => {
    expect(check('POST', { origin: 'https://evil.com' })).toBeNull()
    expect(check('POST', { origin: 'null' })).toBeNull()
    expect(check('POST', {})).toBeNull()
  })

  it('treats an empty Cookie header as cookies (like better-auth)', () => {
    expect(check('POST', { cookie: '', origin: 'https://evil.com' })).toBe('INVALID_ORIGIN')
  })

  it.each([
    [{ origin: 'http://localhost:3000' }, null],
    [{ origin: 'https://a.example.com' }, null],
    [{ origin: 'https://a.b.example.com' }, null],
    [{ origin: 'https://example.com' }, 'INVALID_ORIGIN'],
    [{ origin: 'https://example.com.evil.io' }, 'INVALID_ORIGIN'],
    [{ origin: 'http://localhost:3000.evil.io' }, 'INVALID_ORIGIN'],
    [{ origin: 'http://localhost:3001' }, 'INVALID_ORIGIN'],
    [{ origin: 'https://localhost:3000' }, 'INVALID_ORIGIN'],
    [{ origin: 'http://evil@localhost:3000' }, 'INVALID_ORIGIN'],
    [{ origin: 'http://localhost:3000, https://evil.com' }, 'INVALID_ORIGIN'],
    [{ origin: 'not a url' }, 'INVALID_ORIGIN'],
    [{ origin: '/relative' }, 'INVALID_ORIGIN'],
    [{ origin: 'null' }, 'MISSING_OR_NULL_ORIGIN'],
    [{ origin: 'null', referer: 'http://localhost:3000/account' }, 'MISSING_OR_NULL_ORIGIN'],
    [{ origin: 'null', 'sec-fetch-site': 'same-origin' }, null],
    [{ origin: 'null', 'sec-fetch-site': 'cross-site' }, 'MISSING_OR_NULL_ORIGIN'],
    [{}, 'MISSING_OR_NULL_ORIGIN'],
    [{ origin: '', referer: '' }, 'MISSING_OR_NULL_ORIGIN'],
    [{ referer: 'http://localhost:3000/account/security?tab=1' }, null],
    [{ referer: 'https://evil.com/http://localhost:3000' }, 'INVALID_ORIGIN'],
    [{ referer: 'garbage' }, 'INVALID_ORIGIN'],
    [{ origin: 'https://evil.com', referer: 'http://localhost:3000/' }, 'INVALID_ORIGIN'],
    [{ origin: 'http://localhost:3000', referer: 'https://evil.com/' }, null],
  ])('with cookies and %j answers %s', (headers, expected) => {
    expect(check('POST', { ...COOKIE, ...headers })).toBe(expected)
  })
})

describe('checkFirstLoginOrigin (sign-in and sign-up by email)', () => {
  const first = (headers: Record<string, string>, method = 'POST') =>
    checkFirstLoginOrigin({ method, headers }, config)

  it.each([
    // Nothing says a browser sent it: a server or a script, which cannot be tricked into it.
    [{}, null],
    // What a browser sends from the portal or a trusted app.
    [{ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }, null],
    [{ origin: 'https://app.example.com', 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' }, null],
    [{ referer: 'http://localhost:3000/sign-in' }, null],
    // From another site.
    [{ origin: 'https://evil.com' }, 'INVALID_ORIGIN'],
    [{ referer: 'https://evil.com/page' }, 'INVALID_ORIGIN'],
    [
      { origin: 'https://evil.com', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
      'INVALID_ORIGIN',
    ],
    // A form posted from another site, as a top-level navigation.
    [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, 'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED'],
    [
      { origin: 'http://localhost:3000', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      'CROSS_SITE_NAVIGATION_LOGIN_BLOCKED',
    ],
    // Fetch Metadata says a browser sent it, but not from where.
    [{ 'sec-fetch-mode': 'cors' }, 'MISSING_OR_NULL_ORIGIN'],
    [{ 'sec-fetch-site': 'same-origin', origin: 'null' }, null],
    [{ 'sec-fetch-site': 'cross-site', origin: 'null' }, 'MISSING_OR_NULL_ORIGIN'],
  ])('without cookies, %j answers %s', (headers, expected) => {
    expect(first(headers)).toBe(expected)
  })

  it('leaves requests with cookies to checkOrigin, and safe methods alone', () => {
    expect(first({ ...COOKIE, origin: 'https://evil.com' })).toBeNull()
    expect(first({ origin: 'https://evil.com' }, 'GET')).toBeNull()
  })
})
