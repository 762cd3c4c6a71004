import { createInternalContext, serializeSignedCookie } from 'better-call'
import { describe, expect, it } from 'vitest'
import { signCookieValue, unsignCookieValue } from './signed-cookie.js'

const SECRET = 'a-secret-of-at-least-thirty-two-characters'

// better-call writes `name=<encodeURIComponent(value.signature)>`; this reads the value back out.
const cookieValue = (setCookie: string): string =>
  decodeURIComponent(setCookie.split(';')[0]?.split('=')[1] ?? '')

describe('signed cookie values', () => {
  it('appends a 44-character padded base64 HMAC-SHA256 signature', () => {
    const signed = signCookieValue('token-123', SECRET)
    expect(signed).toMatch(/^token-123\.[A-Za-z0-9+/]{43}=$/)
    expect(unsignCookieValue(signed, SECRET)).toBe('token-123')
  })

  it('keeps values that contain dots', () => {
    expect(unsignCookieValue(signCookieValue('a.b.c', SECRET), SECRET)).toBe('a.b.c')
  })

  // The signature's first character carries six whole bits, so changing it always changes the bytes
  // (the last one holds padding bits and might not).
  function changeSignatureStart(signed: string): string {
    const dot = signed.lastIndexOf('.') + 1
    return `${signed.slice(0, dot)}${signed[dot] === 'A' ? 'B' : 'A'}${signed.slice(dot + 1)}`
  }

  it.each([
    ['another secret', (signed: string) => signed, 'another-secret-of-at-least-thirty-two-chars'],
    ['a changed value', (signed: string) => `x${signed}`, SECRET],
    ['a changed signature', changeSignatureStart, SECRET],
    ['a truncated signature', (signed: string) => signed.slice(0, -1), SECRET],
    ['no signature', () => 'token-123', SECRET],
    ['no value', (signed: string) => signed.slice(signed.indexOf('.')), SECRET],
  ])('refuses %s', (_case, alter, secret) => {
    expect(unsignCookieValue(alter(signCookieValue('token-123', SECRET)), secret)).toBeNull()
  })

  it('reads cookies signed by better-auth (better-call)', async () => {
    const setCookie = await serializeSignedCookie('better-auth.session_token', 'tok.en', SECRET)
    expect(unsignCookieValue(cookieValue(setCookie), SECRET)).toBe('tok.en')
    expect(cookieValue(setCookie)).toBe(signCookieValue('tok.en', SECRET))
  })

  it('signs cookies that better-auth (better-call) accepts', async () => {
    const cookie = `better-auth.session_token=${encodeURIComponent(signCookieValue('tok.en', SECRET))}`
    const context = await createInternalContext(
      { headers: new Headers({ cookie }) },
      { options: { method: 'GET' } },
    )
    expect(await context.getSignedCookie('better-auth.session_token', SECRET)).toBe('tok.en')
    expect(await context.getSignedCookie('better-auth.session_token', `${SECRET}!`)).toBe(false)
  })
})
