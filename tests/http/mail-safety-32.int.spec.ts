/// Issue 32, items 23 and 27, over HTTP with a real SMTP sink: a password change or a ban voids the
/// reset and deletion links mailed before it; an invitation mail shows the organization's and the
/// inviter's names so that no URL in them becomes a link; one person cannot send invitations by
/// the hundred.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Browser, browserFor } from '../support/browser.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const SERVER_KEY = 'server-key-for-the-mail-safety-tests-0123'

let sink: SmtpSink
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())

describe('mail safety, issue 32 (pglite)', { timeout: 180_000 }, () => {
  let tessera: TestTessera
  beforeEach(async () => {
    sink.clear()
    tessera = await startTessera({
      env: {
        SMTP_URL: sink.url,
        BASE_URL: 'http://tessera.test',
        SERVER_KEYS: `ops=${SERVER_KEY}`,
        RATE_LIMIT: 'on',
      },
      features: { user: { deleteUser: { enabled: true } }, rateLimit: { window: 60, max: 1000 } },
    })
  }, 300_000)
  afterEach(() => tessera.cleanup())

  const mailTo = (address: string, subject: RegExp) =>
    sink.waitForMail((mail) => mail.to.includes(address) && subject.test(mail.subject), 15_000)
  const linkIn = (mail: { links: string[] }, path: string) => {
    const link = mail.links.find((candidate) => candidate.includes(path))
    if (!link) throw new Error(`no ${path} link in ${mail.links.join(', ')}`)
    return link
  }
  const signUp = async (email: string, name = 'Ada') => {
    const browser = browserFor(tessera)
    const answer = await browser.post('/sign-up/email', { name, email, password: PASSWORD })
    expect(answer.status).toBe(200)
    return Object.assign(browser, { userId: (answer.json as { user: { id: string } }).user.id })
  }
  const resetLink = async (browser: Browser, email: string) => {
    expect((await browser.post('/request-password-reset', { email, redirectTo: '/reset' })).status).toBe(200)
    const link = linkIn(await mailTo(email, /reset/i), '/reset-password/')
    return new URL(link).pathname.split('/').pop() ?? ''
  }

  it('a reset link asked for before a password change no longer resets (item 23)', async () => {
    const ada = await signUp('ada@example.com')
    const token = await resetLink(browserFor(tessera), 'ada@example.com')
    const changed = await ada.post('/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new passphrase',
    })
    expect(changed.status, changed.body).toBe(200)
    const reset = await browserFor(tessera).post('/reset-password', {
      token,
      newPassword: 'the attacker one',
    })
    expect(reset.status).toBe(400)
    expect(reset.json).toMatchObject({ code: 'INVALID_TOKEN' })
    // The landing page says so too, and the owner's new password stands.
    const landing = await browserFor(tessera).get(`/reset-password/${token}?callbackURL=/reset`)
    expect(landing.headers.location).toBe('/reset?error=INVALID_TOKEN')
    const signIn = await browserFor(tessera).post('/sign-in/email', {
      email: 'ada@example.com',
      password: 'a brand new passphrase',
    })
    expect(signIn.status).toBe(200)
  })

  it('a ban voids an outstanding reset link and deletion link (item 23)', async () => {
    const bob = await signUp('bob@example.com', 'Bob')
    const token = await resetLink(browserFor(tessera), 'bob@example.com')
    expect((await bob.post('/delete-user', { password: PASSWORD, callbackURL: '/bye' })).status).toBe(200)
    const deletion = linkIn(await mailTo('bob@example.com', /delet/i), '/delete-user/callback')
    const banned = await tessera.api.request(
      'POST',
      '/admin/ban-user',
      { userId: bob.userId },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(banned.status, banned.body).toBe(200)
    const reset = await browserFor(tessera).post('/reset-password', {
      token,
      newPassword: 'the attacker one',
    })
    expect(reset.json).toMatchObject({ code: 'INVALID_TOKEN' })
    const deletionToken = new URL(deletion).searchParams.get('token') ?? ''
    const callback = await tessera.api.request('GET', `/delete-user/callback?token=${deletionToken}`)
    expect(callback.headers.location).not.toBe('/bye')
    // The account is still there: an operator can still read it.
    const read = await tessera.api.request('GET', `/admin/get-user?id=${bob.userId}`, undefined, {
      'x-tessera-server-key': SERVER_KEY,
    })
    expect(read.status).toBe(200)
  })

  it('shows a URL-like organization name in an invitation mail as text, not a link (item 27)', async () => {
    const eve = await signUp('eve@example.com', 'Eve at www.evil.example')
    const created = await eve.post('/organization/create', {
      name: 'Free prizes at https://evil.example',
      slug: 'prizes',
    })
    expect(created.status).toBe(200)
    expect(
      (await eve.post('/organization/invite-member', { email: 'dan@example.com', role: 'member' })).status,
    ).toBe(200)
    const mail = await mailTo('dan@example.com', /invited/)
    expect(mail.subject).toBe('You are invited to join “Free prizes at https[:]//evil[.]example”')
    expect(mail.text).toContain('“Eve at www[.]evil[.]example” (eve@example.com) invited you to join')
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toContain('https://evil')
      expect(part).not.toContain('evil.example')
    }
    expect(mail.links.every((link) => link.startsWith('http://tessera.test/'))).toBe(true)
  })

  it('limits the invitations one person sends, across organizations (item 27)', async () => {
    const eve = await signUp('eve@example.com', 'Eve')
    for (const slug of ['one', 'two'])
      expect((await eve.post('/organization/create', { name: slug, slug })).status).toBe(200)
    const invite = (slug: string, n: number) =>
      eve.post('/organization/invite-member', {
        email: `person${n}@example.com`,
        role: 'member',
        organizationId: slug,
      })
    const ids: Record<string, string> = {}
    for (const slug of ['one', 'two']) {
      const found = await eve.get(`/organization/get-full-organization?organizationSlug=${slug}`)
      ids[slug] = (found.json as { id: string }).id
    }
    for (let n = 0; n < 50; n++) {
      const sent = await invite(ids[n % 2 === 0 ? 'one' : 'two'] ?? '', n)
      expect(sent.status, sent.body).toBe(200)
    }
    const refused = await invite(ids.two ?? '', 50)
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ code: 'TOO_MANY_REQUESTS' })
    // Someone else is not held back by Eve's count.
    const ada = await signUp('ada@example.com')
    expect((await ada.post('/organization/create', { name: 'Acme', slug: 'acme' })).status).toBe(200)
    expect(
      (await ada.post('/organization/invite-member', { email: 'x@example.com', role: 'member' })).status,
    ).toBe(200)
  })
})
