import { describe, expect, it } from 'vitest'
import {
  decryptField,
  encryptField,
  FieldDecryptionError,
  generateDataKey,
  unwrapKey,
  wrapKey,
} from './data-keys.js'

const MASTER = 'a-secret-of-at-least-thirty-two-characters'

const failure = (run: () => unknown): string | undefined => {
  try {
    run()
  } catch (error) {
    if (error instanceof FieldDecryptionError) return error.reason
    throw error
  }
  return undefined
}

describe('field encryption', () => {
  it('round-trips text, with a fresh IV each time', () => {
    const key = generateDataKey()
    const first = encryptField(key, 'ana@example.com ✓', 'user:1:email')
    const second = encryptField(key, 'ana@example.com ✓', 'user:1:email')
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/)
    expect(second).not.toBe(first)
    expect(decryptField(key, first, 'user:1:email')).toBe('ana@example.com ✓')
    expect(decryptField(key, encryptField(key, '', 'x'), 'x')).toBe('')
  })

  it('never hands out one IV twice, across the blocks of random bytes IVs are cut from', () => {
    const key = generateDataKey()
    // Past several blocks (512 IVs each): a block reused or refilled under a handed-out IV repeats one.
    const ivs = Array.from({ length: 2_000 }, () => encryptField(key, 'x', 'a').split('.')[1])
    expect(new Set(ivs).size).toBe(ivs.length)
    expect(ivs.every((iv) => iv?.length === 16)).toBe(true)
  })

  it('refuses another key, another aad, or a tampered ciphertext', () => {
    const key = generateDataKey()
    const payload = encryptField(key, 'secret', 'user:1:email')
    expect(failure(() => decryptField(generateDataKey(), payload, 'user:1:email'))).toBe(
      'authentication-failed',
    )
    expect(failure(() => decryptField(key, payload, 'user:2:email'))).toBe('authentication-failed')
    const last = payload.at(-2) === 'A' ? 'B' : 'A'
    const tampered = `${payload.slice(0, -2)}${last}${payload.slice(-1)}`
    expect(failure(() => decryptField(key, tampered, 'user:1:email'))).toBe('authentication-failed')
  })

  it.each([
    ['', 'malformed'],
    ['v1.abc', 'malformed'],
    ['v1.!!!.abc', 'malformed'],
    ['v1.AAAA.AAAAAAAAAAAAAAAAAAAAAA', 'malformed'],
    ['v2.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA', 'unsupported-version'],
    ['v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.A', 'malformed'],
    ['.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA', 'malformed'],
    ['v1..AAAAAAAAAAAAAAAAAAAAAA', 'malformed'],
    ['v1.AAAAAAAAAAAAAAAA.', 'malformed'],
  ])('refuses the payload %j as %s', (payload, reason) => {
    expect(failure(() => decryptField(generateDataKey(), payload, ''))).toBe(reason)
  })

  it('refuses keys that are not 32 bytes', () => {
    expect(() => encryptField(Buffer.alloc(16), 'x', '')).toThrow(RangeError)
  })
})

describe('data key wrapping', () => {
  it('round-trips a data key without showing it', () => {
    const dataKey = generateDataKey()
    const wrapped = wrapKey(MASTER, dataKey, 'user:1')
    expect(wrapped).not.toContain(dataKey.toString('base64url'))
    expect(unwrapKey(MASTER, wrapped, 'user:1').equals(dataKey)).toBe(true)
  })

  it('refuses another master secret or another owner', () => {
    const wrapped = wrapKey(MASTER, generateDataKey(), 'user:1')
    expect(failure(() => unwrapKey(`${MASTER}!`, wrapped, 'user:1'))).toBe('authentication-failed')
    expect(failure(() => unwrapKey(MASTER, wrapped, 'user:2'))).toBe('authentication-failed')
  })
})
