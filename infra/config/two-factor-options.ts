/// `"twoFactor"` in tessera.config.json: better-auth's twoFactor plugin options of the same names,
/// units and defaults, and Tessera's `requiredFor` (roles that must have a second factor, or a
/// passkey, before the admin API answers them).

import type { Section } from './config-section.js'

export type TwoFactorOptions = {
  /** The issuer authenticator apps show (better-auth defaults to the app name: "Tessera"). */
  issuer: string
  totpOptions: { digits: number; period: number }
  /** `period` in minutes, as better-auth counts it. */
  otpOptions: { period: number; digits: number }
  backupCodeOptions: { amount: number; length: number }
  /** Seconds a trusted device skips the second step (30 days). */
  trustDeviceMaxAge: number
  /** Seconds the half-signed-in cookie lives (10 minutes). */
  twoFactorCookieMaxAge: number
  requiredFor: string[]
}

export const TWO_FACTOR_ISSUER_DEFAULT = 'Tessera'

export const parseTwoFactorOptions = (section: Section): TwoFactorOptions => {
  const totp = section.section('totpOptions')
  const otp = section.section('otpOptions')
  const backup = section.section('backupCodeOptions')
  const issuer = section.text('issuer', TWO_FACTOR_ISSUER_DEFAULT)
  const digits = totp.integer('digits', 6, 1)
  if (digits < 6 || digits > 8) throw section.error('twoFactor.totpOptions.digits', 'must be 6, 7 or 8')
  return section.done({
    issuer,
    totpOptions: totp.done({ digits, period: totp.integer('period', 30, 1) }),
    otpOptions: otp.done({ period: otp.integer('period', 3, 1), digits: otp.integer('digits', 6, 1) }),
    backupCodeOptions: backup.done({
      amount: backup.integer('amount', 10, 1),
      length: backup.integer('length', 10, 1),
    }),
    trustDeviceMaxAge: section.integer('trustDeviceMaxAge', 2_592_000, 1),
    twoFactorCookieMaxAge: section.integer('twoFactorCookieMaxAge', 600, 1),
    requiredFor: section.textList('requiredFor', []),
  })
}
