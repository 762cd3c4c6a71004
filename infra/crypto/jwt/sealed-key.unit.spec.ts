import { describe, expect, it } from 'vitest'
import { FieldDecryptionError } from '../data-keys.js'
import { openPrivateKey, sealPrivateKey } from './sealed-key.js'
import { generateSigningKey } from './signing-key.js'

const SECRET = 'a-secret-of-at-least-thirty-two-characters'
const OTHER = 'another-secret-of-at-least-thirty-two-chars'

const failure = (run: () => unknown): string | undefined => {
  try {
    run()
  } catch (error) {
    if (error instanceof FieldDecryptionError) return error.reason
    throw error
  }
  return undefined
}

describe('sealed private keys', async () => {
  const { kid, privateJwk } = await generateSigningKey('ES256')

  it('round-trips a private key without showing it', () => {
    const sealed = sealPrivateKey(privateJwk, SECRET, kid)
    expect(sealed).toMatch(/^jwk1:v1\.[\w-]+\.[\w-]+:v1\.[\w-]+\.[\w-]+$/)
    expect(sealed).not.toContain(String(privateJwk.d))
    expect(sealPrivateKey(privateJwk, SECRET, kid)).not.toBe(sealed)
    expect(openPrivateKey(sealed, SECRET, kid)).toEqual(privateJwk)
  })

  it('cannot be opened with a wrong secret or as another key', () => {
    const sealed = sealPrivateKey(privateJwk, SECRET, kid)
    expect(failure(() => openPrivateKey(sealed, OTHER, kid))).toBe('authentication-failed')
    expect(failure(() => openPrivateKey(sealed, SECRET, 'another-kid'))).toBe('authentication-failed')
  })

  it('opens under a previous secret after AUTH_SECRET rotates', () => {
    const sealed = sealPrivateKey(privateJwk, OTHER)
    expect(openPrivateKey(sealed, [SECRET, OTHER])).toEqual(privateJwk)
    expect(failure(() => openPrivateKey(sealed, [SECRET]))).toBe('authentication-failed')
  })

  it.each([
    ['', 'malformed'],
    ['jwk1:abc', 'malformed'],
    ['jwk2:a:b', 'unsupported-version'],
    ['jwk1:v1.AAAA.AAAA:v1.AAAA.AAAA', 'malformed'],
  ])('refuses %j as %s', (sealed, reason) => {
    expect(failure(() => openPrivateKey(sealed, SECRET))).toBe(reason)
  })
})
