import { describe, expect, it } from 'vitest'
import { isDomainError } from '../shared/errors.js'
import { isValidEmail, normalizeEmail, parseEmail } from './email.js'
import { assertPasswordPolicy } from './password-policy.js'

const codeOf = (run: () => unknown): string | null => {
  try {
    run()
    return null
  } catch (error) {
    return isDomainError(error) ? error.code : 'not a domain error'
  }
}

describe('email policy', () => {
  it('accepts ordinary addresses and normalises them', () => {
    expect(isValidEmail('first.last+tag@sub.example.co')).toBe(true)
    expect(normalizeEmail('  MiXeD@Example.Org ')).toBe('mixed@example.org')
    expect(parseEmail('USER@EXAMPLE.COM')).toBe('user@example.com')
  })

  it('rejects what is not an address', () => {
    for (const bad of [
      'user',
      'user@',
      '@example.com',
      'us er@example.com',
      'user@example',
      'a..b@example.com',
    ])
      expect(
        codeOf(() => parseEmail(bad)),
        bad,
      ).toBe('INVALID_EMAIL')
  })

  it('rejects an address longer than 254 characters', () => {
    expect(isValidEmail(`${'a'.repeat(250)}@example.com`)).toBe(false)
  })
})

describe('password policy', () => {
  it('allows 8 to 128 characters', () => {
    expect(codeOf(() => assertPasswordPolicy('a'.repeat(8)))).toBeNull()
    expect(codeOf(() => assertPasswordPolicy('a'.repeat(128)))).toBeNull()
  })

  it('names the limit that was broken', () => {
    expect(codeOf(() => assertPasswordPolicy('a'.repeat(7)))).toBe('PASSWORD_TOO_SHORT')
    expect(codeOf(() => assertPasswordPolicy('a'.repeat(129)))).toBe('PASSWORD_TOO_LONG')
  })

  it('honours configured limits', () => {
    expect(codeOf(() => assertPasswordPolicy('abcd', { min: 4, max: 6 }))).toBeNull()
    expect(codeOf(() => assertPasswordPolicy('abcdefg', { min: 4, max: 6 }))).toBe('PASSWORD_TOO_LONG')
  })
})
