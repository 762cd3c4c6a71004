/// Passkey ceremonies over HTTP for tests: a browser asks for options, the software authenticator
/// answers them, the browser sends the answer back.

import { expect } from 'vitest'
import type { Bend, SoftwareAuthenticator } from '../../bench/software-authenticator.js'
import type { Browser } from './browser.js'

export type PasskeyJson = {
  id: string
  name: string | null
  publicKey: string
  userId: string
  credentialID: string
  counter: number
  deviceType: string
  backedUp: boolean
  transports: string
  createdAt: string
  aaguid: string | null
}

export const registrationOptions = async (browser: Browser, query = '') => {
  const answer = await browser.get(`/passkey/generate-register-options${query}`)
  expect(answer.status, JSON.stringify(answer.json)).toBe(200)
  return answer.json as { challenge: string } & Record<string, unknown>
}

/** Adds a passkey through `browser`; answers the HTTP answer of verify-registration. */
export const registerPasskey = async (
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  { bend = {}, name }: { bend?: Bend; name?: string } = {},
) => {
  const options = await registrationOptions(browser)
  const { response } = authenticator.create(options, bend)
  return browser.post('/passkey/verify-registration', { response, ...(name ? { name } : {}) })
}

export const authenticationOptions = async (browser: Browser) => {
  const answer = await browser.get('/passkey/generate-authenticate-options')
  expect(answer.status, JSON.stringify(answer.json)).toBe(200)
  return answer.json as { challenge: string } & Record<string, unknown>
}

export const signInWithPasskey = async (
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  bend: Bend = {},
) => {
  const options = await authenticationOptions(browser)
  return browser.post('/passkey/verify-authentication', { response: authenticator.get(options, bend) })
}
