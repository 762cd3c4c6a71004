/// GET /pending-email-change: a verified user's email change on its way, step by step, and the mail
/// the new address gets once the current one approved (its own wording, not sign-up's).

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readModelProjections } from '../../projections/all.js'
import { replay } from '../../projections/runner/projector.js'
import { type Browser, browserFor } from '../support/browser.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const LINK_SECONDS = 3600

let sink: SmtpSink
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())

type Pending = { pending: { newEmail: string; step: string; requestedAt: string } | null }

describe('GET /pending-email-change', () => {
  let tessera: TestTessera
  let now = Date.now()
  beforeEach(async () => {
    sink.clear()
    now = Date.now()
    tessera = await startTessera({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'Tessera <no-reply@tessera.test>',
        BASE_URL: 'http://tessera.test',
      },
      clock: () => new Date(now),
      features: { user: { deleteUser: { immediate: true } } },
    })
  })
  afterEach(() => tessera.cleanup())

  const mailTo = (address: string, subject: RegExp) =>
    sink.waitForMail((mail) => mail.to.includes(address) && subject.test(mail.subject), 15_000)

  const linkIn = (mail: { links: string[] }): string => {
    const link = mail.links.find((l) => l.includes('/verify-email'))
    if (!link) throw new Error(`no verify-email link in ${mail.links.join(', ')}`)
    return link
  }

  /** Signed up and verified through the mailed link. */
  const verifiedUser = async (email: string): Promise<Browser> => {
    const browser = browserFor(tessera)
    const signedUp = await browser.post('/sign-up/email', { name: 'Ada', email, password: PASSWORD })
    expect(signedUp.status).toBe(200)
    await browser.post('/send-verification-email', { email })
    await browser.open(linkIn(await mailTo(email, /verify/i)))
    expect((await browser.session())?.user).toMatchObject({ emailVerified: true })
    sink.clear()
    return browser
  }

  const pendingOf = async (browser: Browser) => {
    const response = await browser.get('/pending-email-change')
    expect(response.status).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    return (response.json as Pending).pending
  }

  it('shows each step of the change until it completes, and the new address gets its own mail', async () => {
    const browser = await verifiedUser('ada@old.example')
    expect(await pendingOf(browser)).toBeNull()

    const requestedAt = new Date(now).toISOString()
    expect((await browser.post('/change-email', { newEmail: 'Ada@New.example' })).status).toBe(200)
    // The change is recorded just after the answer (command-api/account/change-email.ts).
    await expect
      .poll(() => pendingOf(browser))
      .toEqual({
        newEmail: 'ada@new.example',
        step: 'confirm-current',
        requestedAt,
      })

    now += 60_000
    await browser.open(linkIn(await mailTo('ada@old.example', /confirm/i)))
    expect(await pendingOf(browser)).toEqual({ newEmail: 'ada@new.example', step: 'verify-new', requestedAt })
    const second = await mailTo('ada@new.example', /.*/)
    expect(second.subject).toBe('Verify your new email address')
    expect(second.text).toContain('from ada@old.example to this address')
    expect(second.text).not.toContain('finish setting up your account')

    await browser.open(linkIn(second))
    expect((await browser.session())?.user).toMatchObject({ email: 'ada@new.example' })
    expect(await pendingOf(browser)).toBeNull()
  })

  it('shows the latest request when one replaces another', async () => {
    const browser = await verifiedUser('bea@old.example')
    await browser.post('/change-email', { newEmail: 'bea@first.example' })
    await expect.poll(() => pendingOf(browser)).toMatchObject({ newEmail: 'bea@first.example' })
    now += 1000
    await browser.post('/change-email', { newEmail: 'bea@second.example' })
    await expect
      .poll(() => pendingOf(browser))
      .toEqual({
        newEmail: 'bea@second.example',
        step: 'confirm-current',
        requestedAt: new Date(now).toISOString(),
      })
  })

  it('is null once the link of the current step has expired', async () => {
    const browser = await verifiedUser('cyd@old.example')
    await browser.post('/change-email', { newEmail: 'cyd@new.example' })
    await expect.poll(() => pendingOf(browser)).toMatchObject({ step: 'confirm-current' })
    now += (LINK_SECONDS - 1) * 1000
    expect(await pendingOf(browser)).toMatchObject({ step: 'confirm-current' })
    // The approval mails a fresh link: its own hour starts then.
    await browser.open(linkIn(await mailTo('cyd@old.example', /confirm/i)))
    now += (LINK_SECONDS - 1) * 1000
    expect(await pendingOf(browser)).toMatchObject({ step: 'verify-new' })
    now += 2000
    expect(await pendingOf(browser)).toBeNull()
  })

  it('needs a session', async () => {
    const response = await browserFor(tessera).get('/pending-email-change')
    expect(response.status).toBe(401)
    expect(response.json).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('forgets the new address with the user, live and after a replay', async () => {
    const browser = await verifiedUser('dee@old.example')
    await browser.post('/change-email', { newEmail: 'dee@secret.example' })
    const rows = () => tessera.database.db.selectFrom('pending_email_changes').selectAll().execute()
    await expect.poll(rows).toHaveLength(1)
    expect((await browser.post('/delete-user', { password: PASSWORD })).status).toBe(200)
    expect(await rows()).toEqual([])
    await tessera.projector.stop()
    await replay({ db: tessera.database.db, store: tessera.store, projections: readModelProjections })
    expect(await rows()).toEqual([])
  })
})
