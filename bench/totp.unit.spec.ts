import { describe, expect, it } from 'vitest'
import { base32Decode, hotp, secretOfUri, timeStep } from './totp.js'

// RFC 6238 appendix B, SHA-1 rows: the 20-byte ASCII key "12345678901234567890", 8 digits.
const RFC_6238_SHA1: readonly [number, string][] = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
]

describe('bench TOTP', () => {
  const key = Buffer.from('12345678901234567890', 'ascii')

  it.each(RFC_6238_SHA1)('gives RFC 6238 test vector at T=%i', (seconds, code) => {
    expect(hotp(key, timeStep(seconds * 1000), 8)).toBe(code)
  })

  it('gives RFC 4226 six-digit HOTP values', () => {
    // RFC 4226 appendix D, counters 0 and 9.
    expect(hotp(key, 0)).toBe('755224')
    expect(hotp(key, 9)).toBe('520489')
  })

  it('decodes base32 as RFC 4648 does, and reads the secret of an otpauth URI', () => {
    expect(base32Decode('MZXW6YTBOI======').toString()).toBe('foobar')
    expect(base32Decode('gezdgnbvgy3tqojqgezdgnbvgy3tqojq')).toEqual(key)
    expect(
      secretOfUri('otpauth://totp/Bench:a%40b?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Bench'),
    ).toEqual(key)
  })

  it('refuses a character outside base32', () => {
    expect(() => base32Decode('ABC1')).toThrow(/not base32/)
  })
})
