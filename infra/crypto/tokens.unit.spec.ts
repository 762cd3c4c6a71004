import { describe, expect, it } from 'vitest'
import { ALPHANUMERIC, newId, randomToken, sessionToken, sha256Hex } from './tokens.js'

describe('random tokens', () => {
  it.each([
    ['sessionToken', sessionToken, /^[A-Za-z0-9]{32}$/],
    ['newId', newId, /^[A-Za-z0-9]{32}$/],
  ])('%s has the spec shape and does not repeat', (_name, make, shape) => {
    const tokens = Array.from({ length: 200 }, make)
    for (const token of tokens) expect(token).toMatch(shape)
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  it('draws every character of the alphabet', () => {
    const seen = new Set(randomToken(5000, ALPHANUMERIC))
    expect(seen.size).toBe(ALPHANUMERIC.length)
  })

  // With 200 symbols, `byte % 200` would give symbols 0..55 twice the weight of the rest.
  it('has no modulo bias', () => {
    const alphabet = Array.from({ length: 200 }, (_, i) => String.fromCharCode(0x100 + i)).join('')
    const token = randomToken(200_000, alphabet)
    let low = 0
    for (const char of token) if (char.charCodeAt(0) - 0x100 < 56) low++
    // Unbiased: 56/200 = 28% (±0.3% at 3 sigma); biased it would be 112/256 ≈ 43.75%.
    expect(low / token.length).toBeGreaterThan(0.27)
    expect(low / token.length).toBeLessThan(0.29)
  })

  it.each([
    [0, 'ab'],
    [1.5, 'ab'],
    [8, 'a'],
    [8, 'aab'],
  ])('refuses length %s with alphabet %j', (length, alphabet) => {
    expect(() => randomToken(length, alphabet)).toThrow(RangeError)
  })
})

describe('hashes', () => {
  it('hashes tokens with SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})
