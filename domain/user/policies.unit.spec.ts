import { describe, expect, it } from 'vitest'
import { isDomainError } from '../shared/errors.js'
import { COMMON_PASSWORDS_TEXT } from './common-passwords.data.js'
import { isValidEmail, normalizeEmail, parseEmail } from './email.js'
import { assertPasswordPolicy, isCommonPassword } from './password-policy.js'

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

describe('common passwords', () => {
  it('ships at least the 10,000 most common, most common first', () => {
    const list = COMMON_PASSWORDS_TEXT.split('\n')
    expect(list.length).toBeGreaterThanOrEqual(10_000)
    expect(list.slice(0, 2)).toEqual(['123456', 'password'])
    expect(new Set(list).size).toBe(list.length)
  })

  it('recognises them without regard to case, and leaves others alone', () => {
    expect(isCommonPassword('password1')).toBe(true)
    expect(isCommonPassword('PassWord1')).toBe(true)
    expect(isCommonPassword('correct horse battery')).toBe(false)
  })

  it('matches whole entries only, the first and the last included', () => {
    const list = COMMON_PASSWORDS_TEXT.split('\n')
    const entries = new Set(list)
    const [first = '', second = ''] = list
    expect(isCommonPassword(first)).toBe(true)
    expect(isCommonPassword(list.at(-1) ?? '')).toBe(true)
    // Parts and extensions of entries are common exactly when they are entries themselves.
    for (const entry of list.filter((_, index) => index % 97 === 0 || index === list.length - 1))
      for (const variant of [entry.slice(1), entry.slice(0, -1), `${entry}x`, `x${entry}`])
        expect(isCommonPassword(variant)).toBe(entries.has(variant))
    // Two neighbouring entries joined by a line break are not one entry.
    expect(isCommonPassword(`${first}\n${second}`)).toBe(false)
    expect(isCommonPassword('')).toBe(false)
  })

  it('is refused only when the policy asks for it, after the length checks', () => {
    const policy = { min: 8, max: 128, rejectCommon: true }
    expect(codeOf(() => assertPasswordPolicy('password1', policy))).toBe('PASSWORD_COMPROMISED')
    expect(codeOf(() => assertPasswordPolicy('password1', { ...policy, rejectCommon: false }))).toBeNull()
    expect(codeOf(() => assertPasswordPolicy('123456', policy))).toBe('PASSWORD_TOO_SHORT')
  })
})
