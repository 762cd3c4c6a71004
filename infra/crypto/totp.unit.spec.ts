import { describe, expect, it } from 'vitest'
import { base32Decode, base32Encode, hotp, matchingStep, totpAt, totpUri } from './totp.js'

// RFC 6238, Appendix B: the SHA-1 seed and its 8-digit codes.
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii')
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
]
const SIX = { digits: 6, period: 30 }

describe('TOTP (RFC 6238)', () => {
  it.each(RFC_VECTORS)('gives the RFC code at %i s', (seconds, code) => {
    expect(totpAt(RFC_KEY, new Date(seconds * 1000), { digits: 8, period: 30 })).toBe(code)
  })

  it('gives RFC 4226 HOTP codes (Appendix D)', () => {
    expect([0, 1, 2, 9].map((counter) => hotp(RFC_KEY, counter, 6))).toEqual([
      '755224',
      '287082',
      '359152',
      '520489',
    ])
  })

  it('accepts the step before and after, and nothing further', () => {
    const at = new Date(1_111_111_111_000)
    const step = Math.floor(1_111_111_111 / 30)
    for (const offset of [-1, 0, 1]) {
      const code = hotp(RFC_KEY, step + offset, 6)
      expect(matchingStep(RFC_KEY, code, at, SIX)).toBe(step + offset)
    }
    expect(matchingStep(RFC_KEY, hotp(RFC_KEY, step - 2, 6), at, SIX)).toBeNull()
    expect(matchingStep(RFC_KEY, hotp(RFC_KEY, step + 2, 6), at, SIX)).toBeNull()
  })

  it('refuses codes of the wrong length or shape', () => {
    const at = new Date(59_000)
    const code = totpAt(RFC_KEY, at, SIX)
    expect(matchingStep(RFC_KEY, `${code}0`, at, SIX)).toBeNull()
    expect(matchingStep(RFC_KEY, code.slice(1), at, SIX)).toBeNull()
    expect(matchingStep(RFC_KEY, '', at, SIX)).toBeNull()
  })

  it('round-trips base32 (RFC 4648 vectors) and writes the otpauth URI', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI')
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar')
    expect(totpUri('MZXW6YTBOI', { issuer: 'My App', account: 'a@b.c', ...SIX })).toBe(
      'otpauth://totp/My%20App:a%40b.c?secret=MZXW6YTBOI&issuer=My+App&digits=6&period=30',
    )
  })
})
