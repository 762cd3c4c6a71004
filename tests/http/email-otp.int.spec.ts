/// Email one-time codes on better-auth's wire, with codes read from the real SMTP sink: each type,
/// the attempt limit, single use, expiry, a reset that ends every session, the change of address,
/// answers that do not tell which addresses have accounts, and the rate limits.

import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import { START } from '../../infra/event-store/event-store.js'
import { type Browser, browserFor } from '../support/browser.js'
import { mailTessera } from '../support/mail-tessera.js'

const PASSWORD = 'correct horse battery'

const mailed = mailTessera()
const start = mailed.start

const codeFor = async (address: string, subject: RegExp) => {
  const mail = await mailed.sink.waitForMail((m) => m.to.includes(address) && subject.test(m.subject), 15_000)
  const code = /Your code is (\d+)/.exec(mail.text)?.[1]
  if (!code) throw new Error(`no code in ${mail.text}`)
  mailed.sink.clear()
  return code
}

const send = (browser: Browser, email: string, type: string) =>
  browser.post('/email-otp/send-verification-otp', { email, type })

const signUp = async (browser: Browser, email: string) => {
  const answer = await browser.post('/sign-up/email', { name: 'Ada', email, password: PASSWORD })
  expect(answer.status).toBe(200)
}

describe('sign-in codes', { timeout: 300_000 }, () => {
  it('sign a person up and in once, and keep only the code hash', async () => {
    await start()
    const browser = browserFor(mailed.tessera)
    expect((await send(browser, 'New@Example.com', 'sign-in')).json).toEqual({ success: true })
    const code = await codeFor('new@example.com', /sign-in code/i)
    expect(code).toMatch(/^\d{6}$/)
    const answer = await browser.post('/sign-in/email-otp', {
      email: 'new@example.com',
      otp: code,
      name: 'Nia',
    })
    expect(answer.status).toBe(200)
    expect(answer.json).toMatchObject({
      token: expect.any(String),
      user: { email: 'new@example.com', name: 'Nia' },
    })
    expect(Object.keys(answer.json as object).sort()).toEqual(['token', 'user'])
    expect((await browser.session())?.user).toMatchObject({ email: 'new@example.com', emailVerified: true })

    const again = await browserFor(mailed.tessera).post('/sign-in/email-otp', {
      email: 'new@example.com',
      otp: code,
    })
    expect(again.status).toBe(400)
    expect(again.json).toEqual({ code: 'INVALID_OTP', message: 'Invalid OTP' })

    const issued = (await mailed.tessera.ctx.store.readAll(START, 10_000)).find(
      (e) => e.type === 'email-otp.code-issued',
    )
    // Keyed under the secret: a bare SHA-256 of six digits is reversed in a second.
    expect(issued?.data).toMatchObject({ codeHash: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(JSON.stringify(issued?.data)).not.toContain(sha256Hex(code))
    expect(JSON.stringify(issued?.data)).not.toContain(`"${code}"`)
  })

  it('are void after the allowed wrong attempts, and once expired', async () => {
    await start({ emailOTP: { allowedAttempts: 2, expiresIn: 120 } })
    const browser = browserFor(mailed.tessera)
    await send(browser, 'ann@example.com', 'sign-in')
    const code = await codeFor('ann@example.com', /sign-in code/i)
    const wrong = code === '000000' ? '111111' : '000000'
    const attempt = (otp: string) => browser.post('/sign-in/email-otp', { email: 'ann@example.com', otp })
    expect((await attempt(wrong)).json).toMatchObject({ code: 'INVALID_OTP' })
    expect((await attempt(wrong)).json).toMatchObject({ code: 'INVALID_OTP' })
    const locked = await attempt(code)
    expect(locked.status).toBe(403)
    expect(locked.json).toEqual({ code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts' })
    expect((await attempt(code)).json).toMatchObject({ code: 'INVALID_OTP' })
    expect(await browser.session()).toBeNull()

    await send(browser, 'ann@example.com', 'sign-in')
    const fresh = await codeFor('ann@example.com', /sign-in code/i)
    mailed.advance(121_000)
    expect((await attempt(fresh)).json).toEqual({ code: 'OTP_EXPIRED', message: 'OTP expired' })
  })

  it('with disableSignUp, mail nobody without an account, and answer the same', async () => {
    await start({ emailOTP: { disableSignUp: true } })
    const browser = browserFor(mailed.tessera)
    await signUp(browser, 'kim@example.com')
    const known = await send(browser, 'kim@example.com', 'sign-in')
    const unknown = await send(browser, 'nobody@example.com', 'sign-in')
    expect(unknown.status).toBe(known.status)
    expect(unknown.json).toEqual(known.json)
    await codeFor('kim@example.com', /sign-in code/i)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(mailed.sink.messages.filter((m) => m.to.includes('nobody@example.com'))).toEqual([])
  })
})

describe('verification and reset codes', { timeout: 300_000 }, () => {
  it('mail a code on sign-up when asked to; check it without using it, then verify the address', async () => {
    await start({ emailOTP: { sendVerificationOnSignUp: true } })
    const browser = browserFor(mailed.tessera)
    await signUp(browser, 'val@example.com')
    const code = await codeFor('val@example.com', /verification code/i)
    const body = { email: 'val@example.com', type: 'email-verification', otp: code }
    expect((await browser.post('/email-otp/check-verification-otp', body)).json).toEqual({ success: true })
    const verified = await browser.post('/email-otp/verify-email', { email: 'val@example.com', otp: code })
    expect(verified.status).toBe(200)
    expect(verified.json).toMatchObject({ status: true, token: null, user: { emailVerified: true } })
    expect(
      (await browser.post('/email-otp/verify-email', { email: 'val@example.com', otp: code })).status,
    ).toBe(400)
  })

  it('reset the password and end every session, as a reset link does', async () => {
    await start()
    const browser = browserFor(mailed.tessera)
    await signUp(browser, 'rex@example.com')
    const answer = await browserFor(mailed.tessera).post('/forget-password/email-otp', {
      email: 'rex@example.com',
    })
    expect(answer.json).toEqual({ success: true })
    const code = await codeFor('rex@example.com', /password reset code/i)
    const reset = await browserFor(mailed.tessera).post('/email-otp/reset-password', {
      email: 'rex@example.com',
      otp: code,
      password: 'a brand new passphrase',
    })
    expect(reset.json).toEqual({ success: true })
    expect(await browser.session()).toBeNull()
    const signIn = await browserFor(mailed.tessera).post('/sign-in/email', {
      email: 'rex@example.com',
      password: 'a brand new passphrase',
    })
    expect(signIn.status).toBe(200)
    const replay = await browserFor(mailed.tessera).post('/email-otp/reset-password', {
      email: 'rex@example.com',
      otp: code,
      password: 'yet another passphrase',
    })
    expect(replay.json).toMatchObject({ code: 'INVALID_OTP' })
  })

  it('answer the same for an address without an account, and mail it nothing', async () => {
    await start()
    const browser = browserFor(mailed.tessera)
    await signUp(browser, 'ida@example.com')
    for (const type of ['email-verification', 'forget-password']) {
      const known = await send(browserFor(mailed.tessera), 'ida@example.com', type)
      const unknown = await send(browserFor(mailed.tessera), 'ghost@example.com', type)
      expect([unknown.status, unknown.json]).toEqual([known.status, known.json])
    }
    const known = await browserFor(mailed.tessera).post('/email-otp/request-password-reset', {
      email: 'ida@example.com',
    })
    const unknown = await browserFor(mailed.tessera).post('/email-otp/request-password-reset', {
      email: 'ghost@example.com',
    })
    expect([unknown.status, unknown.json]).toEqual([known.status, known.json])
    await mailed.sink.waitForMail((m) => m.to.includes('ida@example.com') && /reset/i.test(m.subject), 15_000)
    await mailed.sink.waitForMail(
      (m) => m.to.includes('ida@example.com') && /verification/i.test(m.subject),
      15_000,
    )
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(mailed.sink.messages.filter((m) => m.to.includes('ghost@example.com'))).toEqual([])
    const check = await browserFor(mailed.tessera).post('/email-otp/check-verification-otp', {
      email: 'ghost@example.com',
      type: 'forget-password',
      otp: '123456',
    })
    expect(check.json).toMatchObject({ code: 'INVALID_OTP' })
  })

  it('move the account to a new address with a code mailed there, when enabled', async () => {
    await start({ emailOTP: { changeEmail: { enabled: true } } })
    const browser = browserFor(mailed.tessera)
    await signUp(browser, 'old@example.com')
    const request = await browser.post('/email-otp/request-email-change', { newEmail: 'new@example.com' })
    expect(request.json).toEqual({ success: true })
    const code = await codeFor('new@example.com', /change your email/i)
    const change = await browser.post('/email-otp/change-email', { newEmail: 'new@example.com', otp: code })
    expect(change.json).toEqual({ success: true })
    await expect
      .poll(async () => (await browser.session())?.user)
      .toMatchObject({ email: 'new@example.com', emailVerified: true })
  })
})

describe('limits', { timeout: 300_000 }, () => {
  it('refuse the change of address when it is off, and limit mail per IP and per recipient', async () => {
    await start({}, { RATE_LIMIT: 'on' })
    const browser = browserFor(mailed.tessera)
    await signUp(browser, 'lee@example.com')
    const off = await browser.post('/email-otp/request-email-change', { newEmail: 'x@example.com' })
    expect(off.json).toMatchObject({ code: 'CHANGE_EMAIL_WITH_OTP_IS_DISABLED' })
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await send(browser, 'lee@example.com', 'sign-in')).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    // Two more mails by another route reach the per-recipient limit (5 in 15 minutes).
    const reset = async () =>
      (await browser.post('/forget-password/email-otp', { email: 'lee@example.com' })).status
    expect([await reset(), await reset()]).toEqual([200, 200])
    expect(await reset()).toBe(429)
  })
})
