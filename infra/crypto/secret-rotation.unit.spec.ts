/// What a rotation of AUTH_SECRET relies on in the crypto helpers: whatever a retired secret signed
/// or wrapped still verifies or opens when that secret is listed after the current one, and stops
/// doing so once it is gone; nothing signed under an unlisted secret passes.

import { describe, expect, it } from 'vitest'
import { FieldDecryptionError, generateDataKey, secretId, unwrapUnderAny, wrapKey } from './data-keys.js'
import { deriveRecordedToken, issueToken } from './derived-tokens.js'
import { signEmailToken, verifyEmailToken } from './email-token.js'
import { signCookieValue, unsignCookieValue } from './signed-cookie.js'

const OLD = 'the-secret-before-the-rotation-0123456789'
const NEW = 'the-secret-after-the-rotation-0123456789a'
const STRANGER = 'a-secret-nobody-configured-0123456789abcd'
const NOW = new Date('2030-01-01T00:00:00Z')

describe('after a rotation of AUTH_SECRET', () => {
  it('a cookie signed under the retired secret verifies while it is listed, and only then', () => {
    const signed = signCookieValue('token-123', OLD)
    expect(unsignCookieValue(signed, [NEW, OLD])).toBe('token-123')
    expect(unsignCookieValue(signCookieValue('token-123', NEW), [NEW, OLD])).toBe('token-123')
    expect(unsignCookieValue(signed, [NEW])).toBeNull()
    expect(unsignCookieValue(signCookieValue('token-123', STRANGER), [NEW, OLD])).toBeNull()
  })

  it('a verification link signed under the retired secret verifies, and still expires', async () => {
    const token = await signEmailToken(
      OLD,
      { email: 'a@example.com', purpose: 'verify-email' },
      {
        now: NOW,
        expiresInSeconds: 3600,
      },
    )
    expect(await verifyEmailToken([NEW, OLD], token, NOW)).toMatchObject({ status: 'valid' })
    expect(await verifyEmailToken([NEW], token, NOW)).toEqual({ status: 'invalid' })
    const later = new Date(NOW.getTime() + 3601_000)
    expect(await verifyEmailToken([NEW, OLD], token, later)).toEqual({ status: 'expired' })
  })

  it('the mail of a reset requested before the rotation carries the token whose hash was recorded', () => {
    const { requestId, token, tokenHash } = issueToken(OLD, 'password-reset')
    expect(deriveRecordedToken([NEW, OLD], 'password-reset', requestId, tokenHash)).toBe(token)
    expect(deriveRecordedToken([NEW], 'password-reset', requestId, tokenHash)).toBeNull()
  })

  it('a data key wrapped under the retired secret opens, and says it is due for re-wrapping', () => {
    const key = generateDataKey()
    const wrapped = wrapKey(OLD, key, 'user-1')
    expect(unwrapUnderAny([NEW, OLD], wrapped, 'user-1')).toEqual({ key, secretIndex: 1 })
    expect(unwrapUnderAny([NEW, OLD], wrapKey(NEW, key, 'user-1'), 'user-1').secretIndex).toBe(0)
    expect(() => unwrapUnderAny([NEW], wrapped, 'user-1')).toThrow(FieldDecryptionError)
    // Bound to its subject under every secret.
    expect(() => unwrapUnderAny([NEW, OLD], wrapped, 'user-2')).toThrow(FieldDecryptionError)
  })

  it('names each secret by a stable id that does not reveal it', () => {
    expect(secretId(OLD)).toBe(secretId(OLD))
    expect(secretId(OLD)).not.toBe(secretId(NEW))
    expect(secretId(OLD)).not.toContain(OLD.slice(0, 8))
    expect(secretId(OLD)).toMatch(/^[A-Za-z0-9_-]{12}$/)
  })
})
