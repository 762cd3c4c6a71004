/// `magicLink` and `emailOTP` in tessera.config.json: better-auth's magicLink and emailOTP plugin
/// options of the same names, units and defaults (seconds for `expiresIn`, 300 for both):
///   {"magicLink": {"expiresIn": 300, "disableSignUp": false},
///    "emailOTP": {"expiresIn": 300, "otpLength": 6, "allowedAttempts": 3, "disableSignUp": false,
///                 "sendVerificationOnSignUp": false,
///                 "changeEmail": {"enabled": false, "verifyCurrentEmail": false}}}
/// Links and codes are always stored hashed (the plugins' `storeToken`/`storeOTP: "hashed"`).

export type MagicLinkOptions = { expiresIn: number; disableSignUp: boolean }

export type EmailOtpOptions = {
  expiresIn: number
  otpLength: number
  allowedAttempts: number
  disableSignUp: boolean
  /** Mail a verification code (not a link) to every new email-and-password account. */
  sendVerificationOnSignUp: boolean
  changeEmail: { enabled: boolean; verifyCurrentEmail: boolean }
}

type Fail = (path: string, reason: string) => Error

/** Reads one object of options: every key checked, unknown keys refused with their path. */
const reader = (path: string, value: unknown, fail: Fail) => {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw fail(path, 'must be an object')
  const values = (value ?? {}) as Record<string, unknown>
  const read = new Set<string>()
  const take = (key: string) => {
    read.add(key)
    return Object.hasOwn(values, key) ? values[key] : undefined
  }
  return {
    raw: take,
    boolean(key: string, fallback: boolean): boolean {
      const found = take(key)
      if (found === undefined) return fallback
      if (typeof found !== 'boolean') throw fail(`${path}.${key}`, 'must be true or false')
      return found
    },
    integer(key: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
      const found = take(key)
      if (found === undefined) return fallback
      if (typeof found !== 'number' || !Number.isSafeInteger(found) || found < 1 || found > max)
        throw fail(`${path}.${key}`, `must be an integer from 1 to ${max}`)
      return found
    },
    done<T>(result: T): T {
      const unknown = Object.keys(values).find((key) => !read.has(key))
      if (unknown !== undefined) throw fail(`${path}.${unknown}`, 'is not a known option')
      return result
    },
  }
}

export const parseMagicLinkOptions = (value: unknown, fail: Fail): MagicLinkOptions => {
  const section = reader('magicLink', value, fail)
  return section.done({
    expiresIn: section.integer('expiresIn', 300),
    disableSignUp: section.boolean('disableSignUp', false),
  })
}

// Codes are digits drawn from the CSPRNG: fewer than 4 are guessed too easily, more than 12 typed badly.
const MAX_OTP_LENGTH = 12

export const parseEmailOtpOptions = (value: unknown, fail: Fail): EmailOtpOptions => {
  const section = reader('emailOTP', value, fail)
  const changeEmail = reader('emailOTP.changeEmail', section.raw('changeEmail'), fail)
  const otpLength = section.integer('otpLength', 6, MAX_OTP_LENGTH)
  if (otpLength < 4) throw fail('emailOTP.otpLength', 'must be at least 4')
  return section.done({
    expiresIn: section.integer('expiresIn', 300),
    otpLength,
    allowedAttempts: section.integer('allowedAttempts', 3),
    disableSignUp: section.boolean('disableSignUp', false),
    sendVerificationOnSignUp: section.boolean('sendVerificationOnSignUp', false),
    changeEmail: changeEmail.done({
      enabled: changeEmail.boolean('enabled', false),
      verifyCurrentEmail: changeEmail.boolean('verifyCurrentEmail', false),
    }),
  })
}
