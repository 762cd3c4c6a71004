import { describe, expect, it } from 'vitest'
import {
  buildLink,
  confirmAccountDeletion,
  confirmEmailChange,
  type RenderedMail,
  resetPassword,
  verifyEmail,
} from './templates.js'

const url = 'https://accounts.example.com/api/auth/verify-email?token=abc&callbackURL=%2Fdone'
const hostileName = `<script>alert(1)</script> "&'`
const escapedName = '&lt;script&gt;alert(1)&lt;/script&gt; &quot;&amp;&#39;'

const templates: [string, (name: string) => RenderedMail][] = [
  ['verifyEmail', (name) => verifyEmail({ name, url })],
  ['resetPassword', (name) => resetPassword({ name, url })],
  ['confirmEmailChange', (name) => confirmEmailChange({ name, newEmail: 'new@example.com', url })],
  ['confirmAccountDeletion', (name) => confirmAccountDeletion({ name, url })],
]

describe.each(templates)('%s', (_, template) => {
  it('escapes the name in HTML and keeps it raw in the text', () => {
    const mail = template(hostileName)
    expect(mail.html).toContain(escapedName)
    expect(mail.html).not.toContain('<script>')
    expect(mail.text).toContain(hostileName)
  })

  it('is an English left-to-right document', () => {
    expect(template('Ann').html).toMatch(/<html lang="en" dir="ltr">/)
  })

  it('carries the link in both parts, escaped as an attribute in HTML', () => {
    const mail = template('Ann')
    expect(mail.text).toContain(url)
    expect(mail.html).toContain(`href="${url.replaceAll('&', '&amp;')}"`)
    expect(mail.html).not.toContain('token=abc&callbackURL')
  })

  it('has a subject free of user data', () => {
    expect(template(hostileName).subject).not.toContain('<')
  })
})

describe('confirmEmailChange', () => {
  it('names the new address, escaped in HTML', () => {
    const mail = confirmEmailChange({ name: 'Ann', newEmail: '"><img src=x>@evil.com', url })
    expect(mail.html).toContain('&quot;&gt;&lt;img src=x&gt;@evil.com')
    expect(mail.html).not.toContain('<img')
    expect(mail.text).toContain('"><img src=x>@evil.com')
  })
})

describe('templates', () => {
  it('refuse a link that is not http(s)', () => {
    expect(() => verifyEmail({ name: 'Ann', url: 'javascript:alert(1)' })).toThrow()
  })

  it('keep a link with quotes from breaking out of the attribute', () => {
    const mail = resetPassword({ name: 'Ann', url: 'https://example.com/reset?x="onmouseover=alert(1)' })
    expect(mail.html).not.toContain('"onmouseover')
  })
})

describe('buildLink', () => {
  it('builds an absolute link on the base URL with encoded parameters', () => {
    const link = buildLink('https://accounts.example.com', '/api/auth/verify-email', {
      token: 'a b&c',
      callbackURL: '/welcome?x=1',
    })
    const parsed = new URL(link)
    expect(parsed.origin).toBe('https://accounts.example.com')
    expect(parsed.pathname).toBe('/api/auth/verify-email')
    expect(parsed.searchParams.get('token')).toBe('a b&c')
    expect(parsed.searchParams.get('callbackURL')).toBe('/welcome?x=1')
  })

  it('keeps the path of a base URL as a prefix', () => {
    expect(buildLink('https://example.com/accounts/', '/reset-password/tok')).toBe(
      'https://example.com/accounts/reset-password/tok',
    )
  })

  it.each([
    '//evil.com',
    '//evil.com/x',
    'https://evil.com',
    '/\\evil.com',
    '\\\\evil.com',
    'relative/path',
    '',
    '/a?redirect=x',
    '/a\r\nSet-Cookie: x',
  ])('rejects %j', (path) => {
    expect(() => buildLink('https://accounts.example.com', path)).toThrow()
  })

  it('rejects a base URL that is not http(s)', () => {
    expect(() => buildLink('javascript:alert(1)//', '/x')).toThrow()
  })
})
