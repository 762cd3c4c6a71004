import { describe, expect, it } from 'vitest'
import { isDomainError } from '../../domain/shared/errors.js'
import { assertTrustedUrls, isTrustedOrigin, isTrustedUrl } from './trusted-url.js'

const TRUSTED = [
  'http://localhost:3000',
  'https://app.example.com',
  'https://admin.example.com:8443',
  'https://*.preview.example.org',
  'https://pr-*.staging.example.net',
  'http://trusted',
]

describe('isTrustedUrl accepts', () => {
  it.each([
    '/dashboard',
    '/',
    '/a/b/c',
    '/dashboard?tab=security&next=%2Fhome',
    '/dashboard#section',
    '/search?q=a%20b',
    '/caf%C3%A9',
    '/a/./b',
    '/welcome?url=https://evil.com',
    'http://localhost:3000',
    'http://localhost:3000/',
    'http://localhost:3000/account?x=1#y',
    'https://app.example.com/after-sign-in',
    'HTTPS://APP.EXAMPLE.COM/path',
    'https://app.example.com:443/default-port',
    'https://admin.example.com:8443/x',
    'https://a.preview.example.org/',
    'https://a.b.preview.example.org/deep',
    'https://pr-42.staging.example.net/',
    'http://trusted/',
    'http://trusted:80/',
  ])('%s', (value) => {
    expect(isTrustedUrl(value, TRUSTED)).toBe(true)
  })
})

describe('isTrustedUrl refuses', () => {
  it.each([
    ['empty', ''],
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with path', '//evil.com/path'],
    ['three slashes', '///evil.com'],
    ['slash backslash', '/\\evil.com'],
    ['backslash backslash', '\\\\evil.com'],
    ['backslash anywhere in a path', '/a\\b'],
    ['backslash in an absolute URL', 'https://app.example.com\\@evil.com'],
    ['encoded slash first', '/%2F%2Fevil.com'],
    ['encoded slash lowercase', '/%2f%2fevil.com'],
    ['encoded slash later', '/a/%2fevil.com'],
    ['encoded backslash', '/%5Cevil.com'],
    ['encoded backslash lowercase', '/%5cevil.com'],
    ['double-encoded slash', '/%252F%252Fevil.com'],
    ['double-encoded backslash', '/%255cevil.com'],
    ['dot segments towards //', '/..//evil.com'],
    ['encoded dot segments towards //', '/%2e%2e//evil.com'],
    ['tab inside the slashes', '/\t/evil.com'],
    ['newline inside the slashes', '/\n/evil.com'],
    ['encoded newline that decodes to a control', '/%0a/evil.com'],
    ['NUL', '/dash\u0000board'],
    ['C1 control', '/dash\u0085board'],
    ['leading space', ' /dashboard'],
    ['leading space before //', ' //evil.com'],
    ['leading tab before an absolute URL', '\thttps://app.example.com'],
    ['leading space before an absolute URL', ' https://app.example.com'],
    ['trailing newline', '/dashboard\n'],
    ['trailing no-break space', '/dashboard\u00a0'],
    ['javascript', 'javascript:alert(1)'],
    ['javascript mixed case', 'JavaScript:alert(1)'],
    ['javascript with an origin-looking comment', 'javascript://app.example.com/%0aalert(1)'],
    ['data', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['file', 'file:///etc/passwd'],
    ['ftp on a trusted host', 'ftp://app.example.com/'],
    ['scheme without slashes', 'https:evil.com'],
    ['scheme without slashes, trusted host', 'https:app.example.com'],
    ['scheme with one slash', 'https:/evil.com'],
    ['scheme with backslashes', 'https:\\\\evil.com'],
    ['plain relative path', 'dashboard'],
    ['dot relative path', './dashboard'],
    ['bare host', 'evil.com'],
    ['untrusted origin', 'https://evil.com'],
    ['untrusted origin with a trusted path', 'https://evil.com/https://app.example.com'],
    ['userinfo: evil@trusted', 'https://evil.com@app.example.com'],
    ['userinfo: trusted@evil', 'https://app.example.com@evil.com'],
    ['empty userinfo', 'https://@app.example.com'],
    ['user and password', 'https://user:pass@app.example.com/'],
    ['trusted as a subdomain of evil', 'http://trusted.evil.com'],
    ['trusted as a prefix', 'http://trustedevil.com'],
    ['trusted with a suffix dot label', 'https://app.example.com.evil.io'],
    ['http instead of https', 'http://app.example.com'],
    ['https instead of http', 'https://localhost:3000'],
    ['wrong port', 'http://localhost:3001'],
    ['missing non-default port', 'https://admin.example.com/'],
    ['wildcard: the apex itself', 'https://preview.example.org'],
    ['wildcard: empty label', 'https://.preview.example.org'],
    ['wildcard: a longer domain', 'https://a.preview.example.org.evil.io'],
    ['wildcard: a look-alike domain', 'https://apreview.example.org'],
    ['wildcard: the domain in the path', 'https://evil.io/a.preview.example.org'],
    ['wildcard: wrong scheme', 'http://a.preview.example.org'],
    ['wildcard: added port', 'https://a.preview.example.org:8443'],
    ['label wildcard: nothing after the prefix', 'https://pr-.staging.example.net'],
    ['label wildcard: another prefix', 'https://qa-1.staging.example.net'],
    ['percent-encoded host', 'https://app%2eexample.com/'],
    ['encoded slash in the host', 'https://evil.com%2f@app.example.com'],
  ])('%s: %j', (_name, value) => {
    expect(isTrustedUrl(value, TRUSTED)).toBe(false)
  })
})

describe('isTrustedOrigin', () => {
  it('compares origins exactly and patterns label-wise', () => {
    expect(isTrustedOrigin('https://app.example.com', TRUSTED)).toBe(true)
    expect(isTrustedOrigin('https://app.example.com.', TRUSTED)).toBe(false)
    expect(isTrustedOrigin('https://x.y.preview.example.org', TRUSTED)).toBe(true)
    expect(isTrustedOrigin('https://x_y.preview.example.org', TRUSTED)).toBe(true)
    expect(isTrustedOrigin('https://x.preview.example.org:443', TRUSTED)).toBe(false)
    expect(isTrustedOrigin('https://pr-1.x.staging.example.net', TRUSTED)).toBe(false)
  })

  it('trusts nothing with an empty list', () => {
    expect(isTrustedOrigin('https://app.example.com', [])).toBe(false)
    expect(isTrustedUrl('https://app.example.com', [])).toBe(false)
    expect(isTrustedUrl('/dashboard', [])).toBe(true)
  })
})

describe('assertTrustedUrls', () => {
  const config = { trustedOrigins: TRUSTED }
  const codeOf = (sources: unknown[]): string | null => {
    try {
      assertTrustedUrls(sources, config)
      return null
    } catch (error) {
      if (!isDomainError(error)) throw error
      expect(error.status).toBe(403)
      return error.code
    }
  }

  it.each([
    [{ callbackURL: 'https://evil.com' }, 'INVALID_CALLBACK_URL'],
    [{ redirectTo: '//evil.com' }, 'INVALID_REDIRECT_URL'],
    [{ errorCallbackURL: 'javascript:alert(1)' }, 'INVALID_ERROR_CALLBACK_URL'],
    [{ newUserCallbackURL: 'https:evil.com' }, 'INVALID_NEW_USER_CALLBACK_URL'],
    [{ callbackURL: 42 }, 'INVALID_CALLBACK_URL'],
    [{ callbackURL: { href: '/x' } }, 'INVALID_CALLBACK_URL'],
    [{ callbackURL: ['/ok', 'https://evil.com'] }, 'INVALID_CALLBACK_URL'],
  ])('refuses %j with %s', (body, code) => {
    expect(codeOf([body, {}])).toBe(code)
    expect(codeOf([{}, body])).toBe(code)
  })

  it('names the first bad field in better-auth order: callbackURL, redirectTo, errorCallbackURL, newUserCallbackURL', () => {
    const all = {
      newUserCallbackURL: '//evil',
      errorCallbackURL: '//evil',
      redirectTo: '//evil',
      callbackURL: '//evil',
    }
    expect(codeOf([all])).toBe('INVALID_CALLBACK_URL')
    expect(codeOf([{ ...all, callbackURL: '/ok' }])).toBe('INVALID_REDIRECT_URL')
    expect(codeOf([{ ...all, callbackURL: '/ok', redirectTo: '/ok' }])).toBe('INVALID_ERROR_CALLBACK_URL')
  })

  it('passes trusted values, absent or empty fields, and bodies that are not objects', () => {
    expect(
      codeOf([
        { callbackURL: '/dashboard', redirectTo: 'https://app.example.com/reset', errorCallbackURL: '' },
        { callbackURL: ['/a', '/b'], newUserCallbackURL: null },
      ]),
    ).toBeNull()
    expect(codeOf([undefined, null, 'callbackURL=https://evil.com', ['https://evil.com'], {}])).toBeNull()
    expect(codeOf([{ url: 'https://evil.com', redirect: '//evil' }])).toBeNull()
  })

  it('checks the query as well as the body', () => {
    expect(codeOf([{ callbackURL: '/ok' }, { callbackURL: '//evil.com' }])).toBe('INVALID_CALLBACK_URL')
  })
})
