/// One-time links under abuse: repeated requests cannot grow the user's outstanding tokens or its
/// stream without bound, an email change voids every link mailed to the old address, and a
/// verification link signs in at most once. Links come from the real SMTP sink.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MAX_OUTSTANDING_TOKENS } from '../../domain/user/user.decide.js'
import { userDecider, userStream } from '../../domain/user/user.js'
import { START } from '../../infra/event-store/event-store.js'
import { type Browser, browserFor } from '../support/browser.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

let sink: SmtpSink
let tessera: TestTessera
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())
beforeEach(() => sink.clear())
afterEach(() => tessera.cleanup())

const start = async (features: object = {}) => {
  tessera = await startTessera({
    env: { SMTP_URL: sink.url, BASE_URL: 'http://tessera.test' },
    features,
  })
}

const mailTo = (address: string, subject: RegExp) =>
  sink.waitForMail((mail) => mail.to.includes(address) && subject.test(mail.subject), 15_000)

const linkIn = (mail: { links: string[] }, path: string): string => {
  const link = mail.links.find((l) => l.includes(path))
  if (!link) throw new Error(`no ${path} link in ${mail.links.join(', ')}`)
  return link
}

const signUp = async (browser: Browser, email: string) => {
  const response = await browser.post('/sign-up/email', { name: 'Ada', email, password: PASSWORD })
  expect(response.status).toBe(200)
  return (response.json as { user: { id: string } }).user.id
}

const eventsOf = async (userId: string) =>
  (await tessera.ctx.store.readAll(START, 10_000)).filter(
    (event) => (event.data as { userId?: string }).userId === userId,
  )

const userState = async (userId: string) => {
  const events = await tessera.ctx.store.readStream(userStream(userId))
  return events.reduce(
    (state, event) => userDecider.evolve(state, event as never),
    userDecider.initialState(),
  )
}

describe('bounded growth', { timeout: 240_000 }, () => {
  it('keeps at most a few reset and deletion links outstanding, and records no more requests', async () => {
    await start()
    const browser = browserFor(tessera)
    const userId = await signUp(browser, 'ada@example.com')
    for (let i = 0; i < MAX_OUTSTANDING_TOKENS + 3; i++) {
      const answer = await browser.post('/request-password-reset', { email: 'ada@example.com' })
      expect(answer.json).toMatchObject({ status: true })
      const deletion = await browser.post('/delete-user', {})
      expect(deletion.json).toEqual({ success: true, message: 'Verification email sent' })
    }
    const count = async (type: string) => (await eventsOf(userId)).filter((e) => e.type === type).length
    await expect.poll(() => count('user.password-reset-requested')).toBe(MAX_OUTSTANDING_TOKENS)
    expect(await count('user.deletion-requested')).toBe(MAX_OUTSTANDING_TOKENS)
    const state = await userState(userId)
    expect(state.status === 'active' && state.resetTokens.length).toBe(MAX_OUTSTANDING_TOKENS)
    expect(state.status === 'active' && state.deletionTokens.length).toBe(MAX_OUTSTANDING_TOKENS)
    const rows = await tessera.ctx.db.selectFrom('one_time_tokens').selectAll().execute()
    expect(rows).toHaveLength(2 * MAX_OUTSTANDING_TOKENS)
  })

  it('pushes out the oldest link when a new one is recorded after the oldest expired', async () => {
    let now = Date.parse('2026-11-01T10:00:00Z')
    tessera = await startTessera({
      env: { SMTP_URL: sink.url, BASE_URL: 'http://tessera.test' },
      clock: () => new Date(now),
    })
    const browser = browserFor(tessera)
    const userId = await signUp(browser, 'bea@example.com')
    const request = () => browser.post('/request-password-reset', { email: 'bea@example.com' })
    for (let i = 0; i < MAX_OUTSTANDING_TOKENS; i++) await request()
    now += 3601 * 1000
    await request()
    const count = async () =>
      (await eventsOf(userId)).filter((e) => e.type === 'user.password-reset-requested').length
    await expect.poll(count).toBe(MAX_OUTSTANDING_TOKENS + 1)
    const state = await userState(userId)
    expect(state.status === 'active' && state.resetTokens.length).toBe(MAX_OUTSTANDING_TOKENS)
  })
})

describe('an email change voids the links of the old address', { timeout: 240_000 }, () => {
  it('refuses the old reset, deletion and verification links after the change', async () => {
    await start()
    const browser = browserFor(tessera)
    await signUp(browser, 'old@example.com')
    await browser.post('/send-verification-email', { email: 'old@example.com' })
    const verifyLink = linkIn(await mailTo('old@example.com', /verify/i), '/verify-email')
    await browser.post('/request-password-reset', { email: 'old@example.com', redirectTo: '/reset' })
    const resetLink = linkIn(await mailTo('old@example.com', /reset/i), '/reset-password/')
    await browser.post('/delete-user', {})
    const deleteLink = linkIn(await mailTo('old@example.com', /delet/i), '/delete-user/callback')

    // Unverified: the address changes at once.
    expect((await browser.post('/change-email', { newEmail: 'new@example.com' })).status).toBe(200)
    await expect.poll(async () => (await browser.session())?.user).toMatchObject({ email: 'new@example.com' })

    const landing = await browser.open(resetLink)
    expect(landing.headers.location).toBe('/reset?error=INVALID_TOKEN')
    const token = new URL(resetLink).pathname.split('/').at(-1)
    const reset = await browser.post('/reset-password', { token, newPassword: 'a brand new passphrase' })
    expect(reset.status).toBe(400)
    expect(reset.json).toMatchObject({ code: 'INVALID_TOKEN' })

    const deletion = await browser.open(deleteLink)
    expect(deletion.status).toBe(404)
    expect(deletion.json).toMatchObject({ code: 'INVALID_TOKEN' })

    const verified = await browserFor(tessera).open(
      verifyLink.replace(/callbackURL=[^&]*/, 'callbackURL=%2Fdone'),
    )
    // Nobody has the old address any more: the link finds no account to verify (better-auth's answer).
    expect(verified.headers.location).toBe('/done?error=user_not_found')
    expect((await browser.session())?.user).toMatchObject({ email: 'new@example.com', emailVerified: false })
    expect(await tessera.ctx.db.selectFrom('one_time_tokens').selectAll().execute()).toEqual([])
  })
})

describe('verification links', { timeout: 240_000 }, () => {
  it('sign in at most once', async () => {
    await start({ emailVerification: { autoSignInAfterVerification: true } })
    const browser = browserFor(tessera)
    await signUp(browser, 'once@example.com')
    await browser.post('/send-verification-email', { email: 'once@example.com' })
    const link = linkIn(await mailTo('once@example.com', /verify/i), '/verify-email')

    const first = browserFor(tessera)
    await first.open(link)
    expect((await first.session())?.user).toMatchObject({ email: 'once@example.com', emailVerified: true })

    const second = browserFor(tessera)
    const again = await second.open(link)
    expect(again.status).toBe(302)
    expect(await second.session()).toBeNull()
    expect(again.setCookie.filter((cookie) => cookie.startsWith('better-auth.session_token='))).toEqual([])
  })
})

describe('audit attribution', { timeout: 240_000 }, () => {
  it('records the sign-outs of a reset as the anonymous reset, not as the owner signing out', async () => {
    await start()
    const laptop = browserFor(tessera, { 'user-agent': 'Laptop UA' })
    const userId = await signUp(laptop, 'fay@example.com')
    const stranger = browserFor(tessera, { 'user-agent': 'Stranger UA' })
    await stranger.post('/request-password-reset', { email: 'fay@example.com', redirectTo: '/reset' })
    const link = linkIn(await mailTo('fay@example.com', /reset/i), '/reset-password/')
    const token = new URL(link).pathname.split('/').at(-1)
    expect(
      (await stranger.post('/reset-password', { token, newPassword: 'a brand new passphrase' })).status,
    ).toBe(200)
    const revoked = (await eventsOf(userId)).filter((event) => event.type === 'session.revoked')
    expect(revoked.length).toBeGreaterThan(0)
    for (const event of revoked) {
      expect(event.metadata.actor).toEqual({ type: 'anonymous' })
      expect(event.data).toMatchObject({ reason: 'password-reset' })
    }
    // The owner's feed names the device signed out, without the stranger's address or browser.
    const rows = () =>
      tessera.ctx.db.selectFrom('activity').selectAll().where('type', '=', 'session.revoked').execute()
    await expect.poll(async () => (await rows()).length).toBe(revoked.length)
    for (const row of await rows()) {
      expect(row.details).toMatchObject({ reason: 'password-reset', userAgent: 'Laptop UA' })
      expect(row.user_agent).toBeNull()
    }
  })
})
