import { describe, expect, it } from 'vitest'
import { apiPathOf, rateLimitKey } from './rate-limit.js'

const BASE = '/api/auth'

describe('apiPathOf', () => {
  it.each([
    '/api/auth/sign-in/email',
    '/api/auth/sign-in/email/',
    '/api/auth/sign-in/email//',
    '//api/auth/sign-in/email',
    '/api//auth/sign-in/email',
    '/api/auth//sign-in/email',
    '/api/auth/sign-in//email',
    '/API/AUTH/SIGN-IN/EMAIL',
    '/api/auth/Sign-In/Email',
    '/api/auth/sign-in%2Femail',
    '/api/auth/sign-in%2femail',
    '/api%2Fauth%2Fsign-in%2Femail',
    '/api/auth/sign-in%252Femail',
    '/api/auth/sign-%69n/email',
    '/api/auth/sign-in\\email',
    '/api/auth/sign-in%5Cemail',
    '/api/auth/./sign-in/email',
    '/api/auth/x/../sign-in/email',
    '/api/auth/sign-in/email?callbackURL=/x',
    '/api/auth/sign-in/email#frag',
    'http://localhost:3000/api/auth/sign-in/email',
  ])('%s is /sign-in/email', (url) => {
    expect(apiPathOf(url, BASE)).toBe('/sign-in/email')
  })

  it('maps the base path itself to / and leaves other paths out', () => {
    expect(apiPathOf('/api/auth', BASE)).toBe('/')
    expect(apiPathOf('/api/auth/', BASE)).toBe('/')
    expect(apiPathOf('/', BASE)).toBeNull()
    expect(apiPathOf('/account', BASE)).toBeNull()
    expect(apiPathOf('/assets/index.js', BASE)).toBeNull()
    expect(apiPathOf('/api/authx/sign-in/email', BASE)).toBeNull()
    expect(apiPathOf('/api/auth/../../account', BASE)).toBeNull()
  })

  it('survives malformed escapes', () => {
    expect(apiPathOf('/api/auth/sign-in%zz/%E0', BASE)).toBe('/sign-in%zz/\u00e0')
  })
})

describe('rateLimitKey', () => {
  const key = (ip: string, url = '/api/auth/sign-in/email') => rateLimitKey({ ip, url }, BASE)

  it('joins the client IP and the canonical path', () => {
    expect(key('203.0.113.7')).toBe('203.0.113.7|/sign-in/email')
    expect(key('203.0.113.7', '//API/auth/sign-in%2Femail/')).toBe('203.0.113.7|/sign-in/email')
    expect(key('203.0.113.7', '/account')).toBeNull()
  })

  it('keys /forget-password as /request-password-reset: two names, one bucket', () => {
    expect(key('203.0.113.7', '/api/auth/forget-password')).toBe('203.0.113.7|/request-password-reset')
    expect(key('203.0.113.7', '/api/auth/FORGET-PASSWORD/')).toBe(
      key('203.0.113.7', '/api/auth/request-password-reset'),
    )
  })

  it('keys IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', () => {
    expect(key('2001:db8:1:2::1')).toBe(key('2001:db8:1:2:ffff:ffff:ffff:ffff'))
    expect(key('2001:DB8:1:2::1')).toBe(key('2001:db8:1:2::1'))
    expect(key('2001:db8:1:2::1')).not.toBe(key('2001:db8:1:3::1'))
    expect(key('::ffff:203.0.113.7')).toBe(key('203.0.113.7'))
    expect(key('203.0.113.7')).not.toBe(key('203.0.113.8'))
  })

  it('caps the path so attacker-chosen URLs cannot make huge keys', () => {
    const long = key('203.0.113.7', `/api/auth/sign-in/${'a'.repeat(10_000)}`)
    expect(long?.length).toBeLessThan(300)
  })
})
