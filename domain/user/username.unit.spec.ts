import { USERNAME_ERROR_CODES } from 'better-auth/plugins/username'
import { describe, expect, it } from 'vitest'
import { AUTH_ERRORS } from '../errors.js'
import { isDomainError } from '../shared/errors.js'
import { normalizeUsername, parseUsername, signUpUsernames, validateUsername } from './username.js'

const failure = (run: () => unknown) => {
  try {
    run()
    return null
  } catch (error) {
    return isDomainError(error) ? { code: error.code, status: error.status } : 'not a domain error'
  }
}

describe('username rules', () => {
  it('accepts letters, digits, underscores and dots, 3 to 30 characters', () => {
    for (const good of ['ana', 'Ana_Lopez.99', '...', '___', 'a'.repeat(30), 'A1b2C3'])
      expect(validateUsername(good), good).toBeNull()
  })

  it('refuses any other character, ASCII or not', () => {
    for (const bad of ['ana lopez', 'ana-lopez', 'ana@x', 'josé', 'ana\n', 'ａｎａ', 'ana+1', 'İstanbul'])
      expect(validateUsername(bad), JSON.stringify(bad)).toBe('INVALID_USERNAME')
  })

  it('checks length first, counting UTF-16 code units as better-auth does', () => {
    expect(validateUsername('')).toBe('USERNAME_TOO_SHORT')
    expect(validateUsername('ab')).toBe('USERNAME_TOO_SHORT')
    expect(validateUsername('a-')).toBe('USERNAME_TOO_SHORT')
    expect(validateUsername('😀')).toBe('USERNAME_TOO_SHORT')
    expect(validateUsername('a'.repeat(31))).toBe('USERNAME_TOO_LONG')
    expect(validateUsername('-'.repeat(31))).toBe('USERNAME_TOO_LONG')
  })

  it('honours configured limits', () => {
    expect(validateUsername('ab', { minLength: 2 })).toBeNull()
    expect(validateUsername('abcdef', { maxLength: 5 })).toBe('USERNAME_TOO_LONG')
    expect(validateUsername('abcde', { minLength: 2, maxLength: 5 })).toBeNull()
  })

  it('stores and compares usernames lowercased', () => {
    expect(normalizeUsername('Ana_Lopez.99')).toBe('ana_lopez.99')
    expect(normalizeUsername('ANA')).toBe(normalizeUsername('ana'))
  })
})

describe('username errors', () => {
  it('answers 400 on sign-up and update-user and 422 on sign-in, with the catalogue message', () => {
    expect(failure(() => parseUsername('ab', 'profile'))).toEqual({ code: 'USERNAME_TOO_SHORT', status: 400 })
    expect(failure(() => parseUsername('ab', 'sign-in'))).toEqual({ code: 'USERNAME_TOO_SHORT', status: 422 })
    expect(failure(() => parseUsername('a b', 'sign-in'))).toEqual({ code: 'INVALID_USERNAME', status: 422 })
    expect(parseUsername('Ana.L', 'sign-in')).toBe('ana.l')
  })

  it("declares better-auth's username codes with its exact messages", () => {
    for (const { code, message } of Object.values(USERNAME_ERROR_CODES)) {
      if (code === 'UNEXPECTED_ERROR') continue // declared by the plugin, thrown nowhere
      expect(AUTH_ERRORS[code as keyof typeof AUTH_ERRORS], code).toMatchObject({ code, message })
    }
  })
})

describe('usernames at sign-up', () => {
  it('lowercases the username and keeps it as typed for display', () => {
    expect(signUpUsernames({ username: 'Ana.Lopez' })).toEqual({
      username: 'ana.lopez',
      displayUsername: 'Ana.Lopez',
    })
    expect(signUpUsernames({ username: 'Ana', displayUsername: 'Ana 🌵' })).toEqual({
      username: 'ana',
      displayUsername: 'Ana 🌵',
    })
    expect(signUpUsernames({ username: 'Ana', displayUsername: '' })).toEqual({
      username: 'ana',
      displayUsername: 'Ana',
    })
  })

  it('takes the username from a displayUsername that passes the rules', () => {
    expect(signUpUsernames({ displayUsername: 'Ana_L' })).toEqual({
      username: 'ana_l',
      displayUsername: 'Ana_L',
    })
    expect(signUpUsernames({ displayUsername: 'Ana L' })).toEqual({
      username: null,
      displayUsername: 'Ana L',
    })
    expect(signUpUsernames({})).toEqual({ username: null, displayUsername: null })
  })

  it('refuses a username that breaks the rules, even an empty one, with 400', () => {
    expect(failure(() => signUpUsernames({ username: '' }))).toEqual({
      code: 'USERNAME_TOO_SHORT',
      status: 400,
    })
    expect(failure(() => signUpUsernames({ username: 'ana lopez', displayUsername: 'Ana' }))).toEqual({
      code: 'INVALID_USERNAME',
      status: 400,
    })
  })
})
