/// The catalogue against better-auth 1.7's own codes: where both declare the same failure (the same
/// message, give or take a final full stop or letter case), the code must be better-auth's, since
/// apps and its client switch on the code.

import { BASE_ERROR_CODES } from 'better-auth'
import { describe, expect, it } from 'vitest'
import { AUTH_ERRORS } from './errors.js'

const comparable = (message: string) => message.toLowerCase().replace(/\.$/, '')

describe('the error catalogue', () => {
  it("uses better-auth's code for every failure both declare", () => {
    const ours = Object.values(AUTH_ERRORS).flatMap((entry) =>
      typeof entry === 'function' ? [] : [{ code: entry.code, message: entry.message }],
    )
    const mismatches = Object.entries(BASE_ERROR_CODES).flatMap(([code, { message }]) =>
      ours
        .filter((entry) => comparable(entry.message) === comparable(message) && entry.code !== code)
        .map((entry) => `${entry.code} should be ${code} ('${message}')`),
    )
    expect(mismatches).toEqual([])
  })
})
