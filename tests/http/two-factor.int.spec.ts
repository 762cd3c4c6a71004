/// Two-factor on the wire of better-auth's twoFactor plugin: turning it on (on only after the first
/// code), the sign-in gate and its half-signed-in cookie, codes accepted once, backup codes used
/// once, turning it off.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { codeAt, enrolled, halfSignedIn, PASSWORD } from '../support/two-factor.js'

let tessera: TestTessera
let now = new Date('2030-01-01T00:00:00.000Z')
const advance = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000)
}

beforeEach(async () => {
  now = new Date('2030-01-01T00:00:00.000Z')
  tessera = await startTessera({ clock: () => now })
})
afterEach(() => tessera.cleanup())

describe('turning two-factor on and off', () => {
  it('answers a TOTP URI and backup codes, and signs in without a second step until a first code', async () => {
    const browser = browserFor(tessera)
    await browser.post('/sign-up/email', { name: 'Ada', email: 'ada@example.com', password: PASSWORD })
    expect((await browser.post('/two-factor/enable', { password: 'wrong password' })).json).toMatchObject({
      code: 'INVALID_PASSWORD',
    })
    const enabled = await browser.post('/two-factor/enable', { password: PASSWORD, issuer: 'Acme' })
    expect(enabled.status).toBe(200)
    const { totpURI, backupCodes, method } = enabled.json as {
      totpURI: string
      backupCodes: string[]
      method: string
    }
    expect(method).toBe('totp')
    expect(totpURI).toMatch(
      /^otpauth:\/\/totp\/Acme:ada%40example\.com\?secret=[A-Z2-7]+&issuer=Acme&digits=6&period=30$/,
    )
    expect(backupCodes).toHaveLength(10)
    for (const code of backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/)

    // Not on yet: a sign-in gets its session straight away.
    const before = await browserFor(tessera).post('/sign-in/email', {
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(before.json).toMatchObject({ token: expect.any(String) })

    const wrong = await browser.post('/two-factor/verify-totp', { code: '000000' })
    expect(wrong.status).toBe(401)
    expect(wrong.json).toMatchObject({ code: 'INVALID_CODE', message: 'Invalid code' })
    const first = await browser.post('/two-factor/verify-totp', { code: codeAt(totpURI, now) })
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({ token: expect.any(String), user: { email: 'ada@example.com' } })

    const after = await browserFor(tessera).post('/sign-in/email', {
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(after.json).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'otp'] })
  })

  it('shows the URI again with the password, and turns off with it', async () => {
    const { browser, totpURI } = await enrolled(tessera, 'ada@example.com', now)
    expect(
      (await browser.post('/two-factor/get-totp-uri', { password: 'nope nope nope' })).json,
    ).toMatchObject({
      code: 'INVALID_PASSWORD',
    })
    expect((await browser.post('/two-factor/get-totp-uri', { password: PASSWORD })).json).toEqual({ totpURI })
    expect((await browser.post('/two-factor/enable', { password: PASSWORD })).json).toMatchObject({
      code: 'TOTP_ALREADY_ENABLED',
    })
    expect((await browser.post('/two-factor/disable', { password: 'nope nope nope' })).status).toBe(400)
    expect((await browser.post('/two-factor/disable', { password: PASSWORD })).json).toEqual({ status: true })
    const signIn = await browserFor(tessera).post('/sign-in/email', {
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(signIn.json).toMatchObject({ token: expect.any(String), redirect: false })
  })
})

describe('signing in with the factor on', () => {
  it('sets the two-factor cookie and no session; the second step then signs in', async () => {
    const { totpURI } = await enrolled(tessera, 'ada@example.com', now)
    advance(60)
    const { device, answer } = await halfSignedIn(tessera, 'ada@example.com')
    expect(answer.setCookie.some((line) => line.startsWith('better-auth.two_factor='))).toBe(true)
    expect(answer.setCookie.some((line) => line.startsWith('better-auth.session_token='))).toBe(false)
    expect(await device.session()).toBeNull()

    const verified = await device.post('/two-factor/verify-totp', { code: codeAt(totpURI, now) })
    expect(verified.status).toBe(200)
    expect(verified.json).toMatchObject({ token: expect.any(String), user: { email: 'ada@example.com' } })
    expect(device.jar.get('better-auth.two_factor')).toBeUndefined()
    expect((await device.session())?.user).toMatchObject({ email: 'ada@example.com' })
  })

  it('refuses the half-signed-in cookie everywhere but the two-factor routes', async () => {
    await enrolled(tessera, 'ada@example.com', now)
    const { device } = await halfSignedIn(tessera, 'ada@example.com')
    expect((await device.get('/get-session')).json).toBeNull()
    for (const [method, path] of [
      ['GET', '/list-sessions'],
      ['POST', '/update-user'],
      ['POST', '/change-password'],
      ['POST', '/two-factor/enable'],
      ['POST', '/two-factor/disable'],
      ['POST', '/two-factor/generate-backup-codes'],
      ['GET', '/organization/list'],
      ['GET', '/activity'],
    ] as const) {
      const body =
        method === 'POST'
          ? { password: PASSWORD, name: 'x', newPassword: 'y', currentPassword: PASSWORD }
          : undefined
      const answer = await device.call(method, path, body)
      expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400)
      expect(answer.status, `${method} ${path}`).toBeLessThan(500)
    }
    // Without it, the second step has nothing to finish.
    const stranger = browserFor(tessera)
    const refused = await stranger.post('/two-factor/verify-totp', { code: '123456' })
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({
      code: 'INVALID_TWO_FACTOR_COOKIE',
      message: 'Invalid two factor cookie',
    })
  })

  it('accepts a code once: the same code is refused within its window, even for another sign-in', async () => {
    const { totpURI } = await enrolled(tessera, 'ada@example.com', now)
    advance(30)
    const code = codeAt(totpURI, now)
    const first = await halfSignedIn(tessera, 'ada@example.com')
    expect((await first.device.post('/two-factor/verify-totp', { code })).status).toBe(200)
    const second = await halfSignedIn(tessera, 'ada@example.com')
    const replay = await second.device.post('/two-factor/verify-totp', { code })
    expect(replay.status).toBe(401)
    expect(replay.json).toMatchObject({ code: 'INVALID_CODE' })
    // The code of the step before is older than the one used: refused too.
    expect(
      (await second.device.post('/two-factor/verify-totp', { code: codeAt(totpURI, now, -1) })).status,
    ).toBe(401)
    // The next step's code (one step of drift) is fine.
    expect(
      (await second.device.post('/two-factor/verify-totp', { code: codeAt(totpURI, now, 1) })).status,
    ).toBe(200)
  })

  it('uses each backup code once, and regenerating replaces them all', async () => {
    const { browser, backupCodes } = await enrolled(tessera, 'ada@example.com', now)
    const [code = '', other = ''] = backupCodes
    const first = await halfSignedIn(tessera, 'ada@example.com')
    const used = await first.device.post('/two-factor/verify-backup-code', { code })
    expect(used.status).toBe(200)
    expect(used.json).toMatchObject({ token: expect.any(String), user: { email: 'ada@example.com' } })
    const second = await halfSignedIn(tessera, 'ada@example.com')
    const again = await second.device.post('/two-factor/verify-backup-code', { code })
    expect(again.status).toBe(401)
    expect(again.json).toMatchObject({ code: 'INVALID_BACKUP_CODE', message: 'Invalid backup code' })
    expect((await browser.get('/two-factor/status')).json).toMatchObject({ backupCodesLeft: 9 })

    const regenerated = await browser.post('/two-factor/generate-backup-codes', { password: PASSWORD })
    expect(regenerated.json).toMatchObject({ status: true, backupCodes: expect.any(Array) })
    expect((await second.device.post('/two-factor/verify-backup-code', { code: other })).status).toBe(401)
    const fresh = (regenerated.json as { backupCodes: string[] }).backupCodes[0]
    expect((await second.device.post('/two-factor/verify-backup-code', { code: fresh })).status).toBe(200)
  })
})
