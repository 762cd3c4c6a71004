/// Two-factor beyond better-auth: the per-user lockout (10 wrong codes lock the second step for 15
/// minutes, whatever the sign-in or IP), trusted devices and what ends them, mailed codes through
/// the real mail reactor and SMTP, and `twoFactor.requiredFor` on the admin API.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { browserFor } from '../support/browser.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { codeAt, enrolled, halfSignedIn, PASSWORD } from '../support/two-factor.js'

// Each test starts its own Tessera and signs in several times: minutes on a loaded machine.
vi.setConfig({ testTimeout: 300_000 })

let sink: SmtpSink
let tessera: TestTessera
let now = new Date('2030-01-01T00:00:00.000Z')
const advance = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000)
}
const start = async (features: object = {}, env: Record<string, string> = {}) => {
  now = new Date('2030-01-01T00:00:00.000Z')
  tessera = await startTessera({ clock: () => now, features, env: { SMTP_URL: sink.url, ...env } })
}

beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())
afterEach(() => tessera?.cleanup())

describe('wrong codes', () => {
  it('give one sign-in five tries, and lock the person out for 15 minutes at the tenth (429)', async () => {
    await start()
    const { totpURI } = await enrolled(tessera, 'ada@example.com', now)
    advance(60)
    const first = await halfSignedIn(tessera, 'ada@example.com')
    for (let i = 0; i < 5; i++)
      expect((await first.device.post('/two-factor/verify-totp', { code: '000000' })).status).toBe(401)
    const spent = await first.device.post('/two-factor/verify-totp', { code: codeAt(totpURI, now) })
    expect(spent.json).toMatchObject({ code: 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE' })

    // Another sign-in (as from another address) continues the same person's count.
    const second = await halfSignedIn(tessera, 'ada@example.com')
    for (let i = 0; i < 5; i++)
      expect(
        (await second.device.post('/two-factor/verify-backup-code', { code: 'wrong-code' })).status,
      ).toBe(401)
    const third = await halfSignedIn(tessera, 'ada@example.com')
    const locked = await third.device.post('/two-factor/verify-totp', { code: codeAt(totpURI, now) })
    expect(locked.status).toBe(429)
    expect(locked.json).toMatchObject({ code: 'ACCOUNT_TEMPORARILY_LOCKED' })

    advance(15 * 60 + 1)
    const later = await halfSignedIn(tessera, 'ada@example.com')
    expect((await later.device.post('/two-factor/verify-totp', { code: codeAt(totpURI, now) })).status).toBe(
      200,
    )
  })

  it('are limited per IP too on the code-checking routes (3 per 10 s)', async () => {
    await start({}, { RATE_LIMIT: 'on' })
    const device = browserFor(tessera)
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await device.post('/two-factor/verify-totp', { code: '123456' })).status)
    expect(statuses).toEqual([401, 401, 401, 429])
  })
})

describe('trusted devices', () => {
  it('skip the second step until the password changes or every session is signed out', async () => {
    await start()
    const { browser, totpURI } = await enrolled(tessera, 'ada@example.com', now)
    advance(60)
    const { device } = await halfSignedIn(tessera, 'ada@example.com')
    const verified = await device.post('/two-factor/verify-totp', {
      code: codeAt(totpURI, now),
      trustDevice: true,
    })
    expect(verified.status).toBe(200)
    expect(device.jar.get('better-auth.trust_device')).toBeDefined()
    expect(device.jar.attributesOf('better-auth.trust_device')).toMatch(/Max-Age=2592000/)

    await device.post('/sign-out')
    const trusted = await device.post('/sign-in/email', { email: 'ada@example.com', password: PASSWORD })
    expect(trusted.json).toMatchObject({ token: expect.any(String) })
    expect((await browser.get('/two-factor/status')).json).toMatchObject({ trustedDevices: 1 })

    // "Sign out everywhere" ends the trust.
    expect((await device.post('/revoke-sessions')).status).toBe(200)
    const afterRevoke = await device.post('/sign-in/email', { email: 'ada@example.com', password: PASSWORD })
    expect(afterRevoke.json).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'otp'] })

    // Trusted again, then a password change ends it.
    advance(60)
    await device.post('/two-factor/verify-totp', { code: codeAt(totpURI, now), trustDevice: true })
    const signedIn = await browserFor(tessera).post('/sign-in/email', {
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(signedIn.json).toMatchObject({ twoFactorRedirect: true })
    const changed = await device.post('/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'another good passphrase',
    })
    expect(changed.status).toBe(200)
    await device.post('/sign-out')
    const afterChange = await device.post('/sign-in/email', {
      email: 'ada@example.com',
      password: 'another good passphrase',
    })
    expect(afterChange.json).toMatchObject({ twoFactorRedirect: true })
  })
})

describe('mailed codes', () => {
  it('arrive by mail, sign in once, and are refused when used again', async () => {
    await start()
    await enrolled(tessera, 'ada@example.com', now)
    sink.clear()
    const { device } = await halfSignedIn(tessera, 'ada@example.com')
    expect((await device.post('/two-factor/send-otp')).json).toEqual({ status: true })
    const mail = await sink.waitForMail((m) => m.to.includes('ada@example.com'), 60_000)
    const code = /code is (\d{6})/.exec(mail.text)?.[1] ?? ''
    expect(code).toMatch(/^\d{6}$/)
    expect(
      (await device.post('/two-factor/verify-otp', { code: code === '000000' ? '111111' : '000000' })).status,
    ).toBe(401)
    const verified = await device.post('/two-factor/verify-otp', { code })
    expect(verified.json).toMatchObject({ token: expect.any(String), user: { email: 'ada@example.com' } })
    const again = await halfSignedIn(tessera, 'ada@example.com')
    const replay = await again.device.post('/two-factor/verify-otp', { code })
    expect(replay.json).toMatchObject({ code: 'OTP_HAS_EXPIRED' })
  })
})

describe('twoFactor.requiredFor', () => {
  it('keeps the admin API closed to an operator without a second factor (403), open once they have one', async () => {
    await start({ twoFactor: { requiredFor: ['admin'] }, admin: { defaultRole: 'admin' } })
    const operator = browserFor(tessera)
    await operator.post('/sign-up/email', { name: 'Op', email: 'op@example.com', password: PASSWORD })
    const refused = await operator.get('/admin/list-users')
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' })
    const { totpURI } = (await operator.post('/two-factor/enable', { password: PASSWORD })).json as {
      totpURI: string
    }
    expect((await operator.post('/two-factor/verify-totp', { code: codeAt(totpURI, now) })).status).toBe(200)
    expect((await operator.get('/admin/list-users')).status).toBe(200)
  })
})
