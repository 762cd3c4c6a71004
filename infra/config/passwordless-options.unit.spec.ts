import { describe, expect, it } from 'vitest'
import { parseFeatureOptions } from './config-file.js'

describe('magicLink and emailOTP options', () => {
  it("default to the plugins' values", () => {
    const options = parseFeatureOptions({})
    expect(options.magicLink).toEqual({ expiresIn: 300, disableSignUp: false })
    expect(options.emailOTP).toEqual({
      expiresIn: 300,
      otpLength: 6,
      allowedAttempts: 3,
      disableSignUp: false,
      sendVerificationOnSignUp: false,
      changeEmail: { enabled: false, verifyCurrentEmail: false },
    })
  })

  it('take the values written', () => {
    const options = parseFeatureOptions({
      magicLink: { expiresIn: 600, disableSignUp: true },
      emailOTP: { otpLength: 8, allowedAttempts: 5, changeEmail: { enabled: true } },
    })
    expect(options.magicLink).toEqual({ expiresIn: 600, disableSignUp: true })
    expect(options.emailOTP).toMatchObject({
      otpLength: 8,
      allowedAttempts: 5,
      changeEmail: { enabled: true },
    })
  })

  it('name the bad key', () => {
    expect(() => parseFeatureOptions({ magicLink: { expiresln: 60 } })).toThrow(
      /magicLink\.expiresln is not a known option/,
    )
    expect(() => parseFeatureOptions({ emailOTP: { otpLength: 3 } })).toThrow(
      /emailOTP\.otpLength must be at least 4/,
    )
    expect(() => parseFeatureOptions({ emailOTP: { allowedAttempts: 0 } })).toThrow(
      /emailOTP\.allowedAttempts/,
    )
    expect(() => parseFeatureOptions({ emailOTP: { changeEmail: { enabled: 'yes' } } })).toThrow(
      /emailOTP\.changeEmail\.enabled must be true or false/,
    )
  })
})
