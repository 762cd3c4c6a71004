/// Compatibility: better-auth 1.7.5's client with `magicLinkClient` and `emailOTPClient` drives a
/// Tessera on loopback, links and codes read from a real SMTP sink: sign in by link, sign in and up
/// by code, verify an address, reset a password, change the address, and the plugin's error codes.

import { createAuthClient } from 'better-auth/client'
import { emailOTPClient, magicLinkClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { browserCookies } from './browser-cookies.js'

const PASSWORD = 'correct horse battery'
const COOKIE = 'better-auth.session_token'

const device = (tessera: TestTessera) => {
  const { jar, fetchOptions } = browserCookies(tessera)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [magicLinkClient(), emailOTPClient()],
    fetchOptions,
  })
  return { jar, client }
}

describe('better-auth 1.7.5 magicLinkClient and emailOTPClient against Tessera (pglite, loopback)', () => {
  let sink: SmtpSink
  let tessera: TestTessera
  beforeAll(async () => {
    sink = await startSmtpSink()
    tessera = await startTessera({
      listen: true,
      env: { SMTP_URL: sink.url },
      features: { emailOTP: { changeEmail: { enabled: true } } },
    })
    // A loaded machine (the suite shares two cores) can take minutes to open a fresh PGlite.
  }, 300_000)
  afterAll(async () => {
    await tessera?.cleanup()
    await sink?.close()
  })
  beforeEach(() => sink.clear())

  const mailTo = (address: string, subject: RegExp) =>
    sink.waitForMail((mail) => mail.to.includes(address) && subject.test(mail.subject), 15_000)
  const codeFor = async (address: string, subject: RegExp) =>
    /Your code is (\d+)/.exec((await mailTo(address, subject)).text)?.[1] ?? ''

  it('signs in with a magic link the client follows', { timeout: 120_000 }, async () => {
    const laptop = device(tessera)
    const asked = await laptop.client.signIn.magicLink({ email: 'ada@example.com', name: 'Ada' })
    expect(asked.error).toBeNull()
    expect(asked.data).toEqual({ status: true })
    const link = (await mailTo('ada@example.com', /sign-in link/i)).links.find((l) =>
      l.includes('magic-link'),
    )
    const token = new URL(link ?? 'http://x').searchParams.get('token') ?? ''
    const verified = await laptop.client.magicLink.verify({ query: { token } })
    expect(verified.error).toBeNull()
    expect(verified.data).toMatchObject({
      token: expect.any(String),
      user: { email: 'ada@example.com', name: 'Ada' },
    })
    expect(laptop.jar.get(COOKIE)).toBeDefined()
    expect((await laptop.client.getSession()).data?.user).toMatchObject({ email: 'ada@example.com' })

    const again = await device(tessera).client.magicLink.verify({ query: { token } })
    expect(again.data).toBeNull()
  })

  it('signs up and in with a code, and surfaces the plugin error codes', { timeout: 120_000 }, async () => {
    const phone = device(tessera)
    const sent = await phone.client.emailOtp.sendVerificationOtp({
      email: 'bea@example.com',
      type: 'sign-in',
    })
    expect(sent.data).toEqual({ success: true })
    const code = await codeFor('bea@example.com', /sign-in code/i)
    const wrong = await phone.client.signIn.emailOtp({
      email: 'bea@example.com',
      otp: code === '000000' ? '1' : '0',
    })
    expect(wrong.error).toMatchObject({ status: 400, code: 'INVALID_OTP' })
    const signedIn = await phone.client.signIn.emailOtp({ email: 'bea@example.com', otp: code })
    expect(signedIn.error).toBeNull()
    expect(signedIn.data).toMatchObject({ token: expect.any(String), user: { email: 'bea@example.com' } })
    expect((await phone.client.getSession()).data?.user).toMatchObject({ email: 'bea@example.com' })
  })

  it('verifies an address, resets a password and changes the address with codes', {
    timeout: 180_000,
  }, async () => {
    const laptop = device(tessera)
    const signUp = await laptop.client.signUp.email({
      name: 'Cy',
      email: 'cy@example.com',
      password: PASSWORD,
    })
    expect(signUp.error).toBeNull()

    await laptop.client.emailOtp.sendVerificationOtp({ email: 'cy@example.com', type: 'email-verification' })
    const verifyCode = await codeFor('cy@example.com', /verification code/i)
    const checked = await laptop.client.emailOtp.checkVerificationOtp({
      email: 'cy@example.com',
      type: 'email-verification',
      otp: verifyCode,
    })
    expect(checked.data).toEqual({ success: true })
    const verified = await laptop.client.emailOtp.verifyEmail({ email: 'cy@example.com', otp: verifyCode })
    expect(verified.data).toMatchObject({ status: true, user: { emailVerified: true } })

    sink.clear()
    const requested = await device(tessera).client.emailOtp.requestPasswordReset({ email: 'cy@example.com' })
    expect(requested.data).toEqual({ success: true })
    const resetCode = await codeFor('cy@example.com', /password reset code/i)
    const reset = await device(tessera).client.emailOtp.resetPassword({
      email: 'cy@example.com',
      otp: resetCode,
      password: 'a brand new passphrase',
    })
    expect(reset.data).toEqual({ success: true })

    const phone = device(tessera)
    await phone.client.signIn.email({ email: 'cy@example.com', password: 'a brand new passphrase' })
    const change = await phone.client.emailOtp.requestEmailChange({ newEmail: 'cy@new.example' })
    expect(change.data).toEqual({ success: true })
    const changeCode = await codeFor('cy@new.example', /change your email/i)
    const changed = await phone.client.emailOtp.changeEmail({ newEmail: 'cy@new.example', otp: changeCode })
    expect(changed.data).toEqual({ success: true })
    await expect
      .poll(
        async () => (await phone.client.getSession({ query: { disableCookieCache: true } })).data?.user.email,
      )
      .toBe('cy@new.example')
  })
})
