/// Helpers for two-factor tests: a person with the factor on, and codes computed as their
/// authenticator app would compute them from the `otpauth://` URI.

import { expect } from 'vitest'
import { base32Decode, hotp, timeStep } from '../../infra/crypto/totp.js'
import { type Browser, browserFor } from './browser.js'
import type { TestTessera } from './tessera.js'

export const PASSWORD = 'correct horse battery'

export const secretOf = (totpURI: string): Buffer => {
  const secret = new URL(totpURI).searchParams.get('secret')
  if (!secret) throw new Error(`no secret in ${totpURI}`)
  return base32Decode(secret)
}

/** The code an authenticator shows at `at`, `offset` steps away. */
export const codeAt = (totpURI: string, at: Date, offset = 0): string =>
  hotp(secretOf(totpURI), timeStep(at, 30) + offset, 6)

export type Enrolled = { browser: Browser; totpURI: string; backupCodes: string[]; email: string }

/** Signs up `email`, turns two-factor on and confirms it with a first code at `at`. */
export const enrolled = async (tessera: TestTessera, email: string, at: Date): Promise<Enrolled> => {
  const browser = browserFor(tessera)
  expect((await browser.post('/sign-up/email', { name: 'Ada', email, password: PASSWORD })).status).toBe(200)
  const enabled = await browser.post('/two-factor/enable', { password: PASSWORD })
  expect(enabled.status).toBe(200)
  const { totpURI, backupCodes } = enabled.json as { totpURI: string; backupCodes: string[] }
  expect((await browser.post('/two-factor/verify-totp', { code: codeAt(totpURI, at) })).status).toBe(200)
  return { browser, totpURI, backupCodes, email }
}

/** A fresh device that passes the password: it now holds only the two-factor cookie. */
export const halfSignedIn = async (tessera: TestTessera, email: string, device = browserFor(tessera)) => {
  const answer = await device.post('/sign-in/email', { email, password: PASSWORD })
  expect(answer.status).toBe(200)
  return { device, answer }
}
