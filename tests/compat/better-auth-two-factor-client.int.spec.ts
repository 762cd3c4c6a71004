/// Compatibility: better-auth 1.7.5's client with its `twoFactorClient` plugin drives a Tessera on
/// loopback: enable, the first code, a sign-in that is redirected to the second step (the plugin's
/// `onTwoFactorRedirect`), verify-totp with trustDevice, backup codes, and disable.

import { createAuthClient } from 'better-auth/client'
import { twoFactorClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { codeAt, PASSWORD } from '../support/two-factor.js'
import { browserCookies } from './browser-cookies.js'

const device = (tessera: TestTessera, onTwoFactorRedirect: (methods: string[]) => void = () => {}) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [
      twoFactorClient({
        onTwoFactorRedirect: ({ twoFactorMethods }) => onTwoFactorRedirect(twoFactorMethods ?? []),
      }),
    ],
    fetchOptions,
  })
  return { jar, client }
}

describe('better-auth 1.7.5 twoFactorClient against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  let now = new Date('2030-01-01T00:00:00.000Z')
  beforeAll(async () => {
    tessera = await startTessera({ listen: true, clock: () => now })
  })
  afterAll(() => tessera.cleanup())

  it('enables, redirects a sign-in to the second step, verifies, trusts the device, uses a backup code, disables', async () => {
    const laptop = device(tessera)
    await laptop.client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD })
    const enabled = await laptop.client.twoFactor.enable({ password: PASSWORD })
    expect(enabled.error).toBeNull()
    if (enabled.data?.method !== 'totp') throw new Error('expected the TOTP method')
    const { totpURI, backupCodes } = enabled.data
    expect(backupCodes).toHaveLength(10)
    const first = await laptop.client.twoFactor.verifyTotp({ code: codeAt(totpURI, now) })
    expect(first.error).toBeNull()
    const uri = await laptop.client.twoFactor.getTotpUri({ password: PASSWORD })
    expect(uri.data?.totpURI).toBe(totpURI)

    now = new Date(now.getTime() + 60_000)
    const redirects: string[][] = []
    const phone = device(tessera, (methods) => redirects.push(methods))
    const signIn = await phone.client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    expect(signIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'otp'] })
    expect(redirects).toEqual([['totp', 'otp']])
    expect((await phone.client.getSession()).data).toBeNull()

    const wrong = await phone.client.twoFactor.verifyTotp({ code: '000000' })
    expect(wrong.error).toMatchObject({ status: 401, code: 'INVALID_CODE' })
    const verified = await phone.client.twoFactor.verifyTotp({
      code: codeAt(totpURI, now),
      trustDevice: true,
    })
    expect(verified.error).toBeNull()
    expect(verified.data).toMatchObject({ token: expect.any(String), user: { email: 'ada@example.com' } })
    expect((await phone.client.getSession()).data?.user.email).toBe('ada@example.com')

    // The trusted phone signs in again without the second step.
    await phone.client.signOut()
    const again = await phone.client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    expect(again.data).toMatchObject({ token: expect.any(String) })

    const tablet = device(tessera)
    await tablet.client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    const backup = await tablet.client.twoFactor.verifyBackupCode({
      code: backupCodes[0] ?? '',
    })
    expect(backup.error).toBeNull()
    const codes = await tablet.client.twoFactor.generateBackupCodes({ password: PASSWORD })
    expect(codes.data?.backupCodes).toHaveLength(10)

    const disabled = await laptop.client.twoFactor.disable({ password: PASSWORD })
    expect(disabled.data).toEqual({ status: true })
    const plain = await device(tessera).client.signIn.email({ email: 'ada@example.com', password: PASSWORD })
    expect(plain.data).toMatchObject({ redirect: false, token: expect.any(String) })
  })
})
