/// Security notices through the real mail reactor and a real SMTP server: the account's address is
/// told when its password is changed or reset, when its address changes (the old address is told),
/// and when it is deleted (then the address, kept only for that mail, is erased from the log).

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import { type Browser, browserFor } from '../support/browser.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const NEW_PASSWORD = 'a much better passphrase'

let sink: SmtpSink
let tessera: TestTessera
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())
beforeEach(async () => {
  sink.clear()
  tessera = await startTessera({
    env: { SMTP_URL: sink.url, BASE_URL: 'http://tessera.test' },
    features: { user: { deleteUser: { immediate: true } } },
  })
})
afterEach(() => tessera.cleanup())

const mailTo = (address: string, subject: RegExp) =>
  sink.waitForMail((mail) => mail.to.includes(address) && subject.test(mail.subject), 30_000)

const linkIn = (mail: { links: string[] }, path: string): string => {
  const link = mail.links.find((l) => l.includes(path))
  if (!link) throw new Error(`no ${path} link in ${mail.links.join(', ')}`)
  return link
}

const signUp = async (email: string): Promise<Browser> => {
  const browser = browserFor(tessera)
  const response = await browser.post('/sign-up/email', { name: 'Ada', email, password: PASSWORD })
  expect(response.status).toBe(200)
  return browser
}

const expectNoticeShape = (mail: { text: string; links: string[] }) => {
  expect(mail.text).toMatch(/If this was not you/)
  // The way to act: ask for a reset link on the portal. No one-time link travels in a notice.
  expect(mail.links).toEqual(['http://tessera.test/forgot-password'])
}

describe('security notices', { timeout: 240_000 }, () => {
  it('tells the address when the password is changed', async () => {
    const ada = await signUp('ada@example.com')
    const changed = await ada.post('/change-password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    })
    expect(changed.status).toBe(200)
    const mail = await mailTo('ada@example.com', /password was changed/)
    expect(mail.subject).toBe('Your password was changed')
    expect(mail.text).toMatch(/^Hello Ada,/)
    expectNoticeShape(mail)
  })

  it('tells the address when the password is reset', async () => {
    const bea = await signUp('bea@example.com')
    await bea.post('/request-password-reset', { email: 'bea@example.com', redirectTo: '/reset' })
    const link = linkIn(await mailTo('bea@example.com', /Reset your password/), '/reset-password/')
    const token = new URL(link).pathname.split('/').at(-1)
    expect((await bea.post('/reset-password', { token, newPassword: NEW_PASSWORD })).status).toBe(200)
    const mail = await mailTo('bea@example.com', /password was reset/)
    expect(mail.text).toMatch(/signed out/)
    expectNoticeShape(mail)
  })

  it('tells the old address when a verified address is changed, and not an unverified one', async () => {
    const cyd = await signUp('cyd@old.example')
    await cyd.post('/send-verification-email', { email: 'cyd@old.example' })
    await cyd.open(linkIn(await mailTo('cyd@old.example', /Verify your email/), '/verify-email'))
    await expect.poll(async () => (await cyd.session())?.user).toMatchObject({ emailVerified: true })

    expect((await cyd.post('/change-email', { newEmail: 'cyd@new.example' })).status).toBe(200)
    await cyd.open(
      linkIn(await mailTo('cyd@old.example', /Confirm your email address change/), '/verify-email'),
    )
    await cyd.open(linkIn(await mailTo('cyd@new.example', /Verify your new email/), '/verify-email'))
    const notice = await mailTo('cyd@old.example', /email address of your account was changed/)
    expectNoticeShape(notice)
    // The new address is not named to the old one.
    expect(notice.text).not.toContain('cyd@new.example')

    // An unverified account changes at once; its old address was never proven, so it is not told.
    const dee = await signUp('dee@old.example')
    expect((await dee.post('/change-email', { newEmail: 'dee@new.example' })).status).toBe(200)
    // Mails go out in the order of the events: the new address's verification comes after the change.
    await mailTo('dee@new.example', /Verify your email/)
    expect(sink.messages.filter((mail) => mail.to.includes('dee@old.example'))).toEqual([])
  })

  it('tells the address when the account is deleted, then forgets the address', async () => {
    const eve = await signUp('eve@example.com')
    const deleted = await eve.post('/delete-user', { password: PASSWORD })
    expect(deleted.json).toEqual({ success: true, message: 'User deleted' })
    const mail = await mailTo('eve@example.com', /account was deleted/)
    expect(mail.text).toMatch(/^Hello Ada,/)
    expect(mail.text).toMatch(/If this was not you/)
    expect(mail.links).toEqual([])

    // Once handled, the notice's own key is destroyed: the log no longer holds the address.
    const noticeData = async () =>
      (await tessera.ctx.store.readAll(START, 1000))
        .filter((event) => event.type === 'user.deletion-notice-requested')
        .map((event) => event.data)
    await expect.poll(noticeData).toEqual([expect.objectContaining({ email: null, name: null })])
    const all = JSON.stringify(await tessera.ctx.store.readAll(START, 1000), (_key, value) =>
      typeof value === 'bigint' ? String(value) : value,
    )
    expect(all).not.toContain('eve@example.com')
  })
})
