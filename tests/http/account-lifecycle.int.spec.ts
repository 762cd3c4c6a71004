import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Browser, browserFor } from '../support/browser.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

let sink: SmtpSink
beforeAll(async () => {
  sink = await startSmtpSink()
})
afterAll(() => sink.close())

const start = (features: object = {}) =>
  startTessera({
    env: {
      SMTP_URL: sink.url,
      MAIL_FROM: 'Tessera <no-reply@tessera.test>',
      BASE_URL: 'http://tessera.test',
    },
    features,
  })

const mailTo = (address: string, subject: RegExp) =>
  sink.waitForMail((mail) => mail.to.includes(address) && subject.test(mail.subject), 15_000)

const linkIn = (mail: { links: string[] }, path: string): string => {
  const link = mail.links.find((l) => l.includes(path))
  if (!link) throw new Error(`no ${path} link in ${mail.links.join(', ')}`)
  return link
}

const signUp = async (browser: Browser, email: string, name = 'Test Person') => {
  const response = await browser.post('/sign-up/email', {
    name,
    email,
    password: PASSWORD,
    callbackURL: '/welcome',
  })
  expect(response.status).toBe(200)
  return response.json as { user: { id: string } }
}

describe('email verification', () => {
  let tessera: TestTessera
  beforeEach(async () => {
    sink.clear()
    tessera = await start({ emailVerification: { sendOnSignUp: true } })
  })
  afterEach(() => tessera.cleanup())

  it('mails a link on sign-up that verifies the address and redirects to the callback', async () => {
    const browser = browserFor(tessera)
    await signUp(browser, 'verify@example.com')
    const mail = await mailTo('verify@example.com', /verify/i)
    const link = linkIn(mail, '/verify-email')
    expect(link.startsWith('http://tessera.test/api/auth/verify-email?token=')).toBe(true)
    const followed = await browser.open(link)
    expect(followed.status).toBe(302)
    expect(followed.headers.location).toBe('/welcome')
    const session = (await browser.get('/get-session')).json as { user: { emailVerified: boolean } }
    expect(session.user.emailVerified).toBe(true)
  })

  it('sends the error to the callback for a bad token, or answers 401 without one', async () => {
    const browser = browserFor(tessera)
    const redirected = await browser.get('/verify-email?token=not-a-token&callbackURL=%2Fdone')
    expect(redirected.headers.location).toBe('/done?error=invalid_token')
    const plain = await browser.get('/verify-email?token=not-a-token')
    expect(plain.status).toBe(401)
    expect(plain.json).toMatchObject({ code: 'INVALID_TOKEN' })
  })

  it('sends a verification mail only to the own unverified address', async () => {
    const browser = browserFor(tessera)
    await signUp(browser, 'own@example.com')
    await mailTo('own@example.com', /verify/i)
    const other = await browser.post('/send-verification-email', { email: 'someone@example.com' })
    expect(other.status).toBe(400)
    expect(other.json).toMatchObject({ code: 'EMAIL_MISMATCH' })
    sink.clear()
    const own = await browser.post('/send-verification-email', {
      email: 'own@example.com',
      callbackURL: '/again',
    })
    expect(own.json).toEqual({ status: true })
    expect(linkIn(await mailTo('own@example.com', /verify/i), '/verify-email')).toContain(
      'callbackURL=%2Fagain',
    )
  })

  it('refuses a malformed address with 400 INVALID_EMAIL, signed in or not', async () => {
    const browser = browserFor(tessera)
    await signUp(browser, 'shape@example.com')
    for (const caller of [browser, browserFor(tessera)]) {
      const answer = await caller.post('/send-verification-email', { email: 'not an address' })
      expect(answer.status).toBe(400)
      expect(answer.json).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' })
    }
  })
})

describe('sign-in that requires a verified email', () => {
  it('refuses with 403 EMAIL_NOT_VERIFIED and sends a fresh link', async () => {
    sink.clear()
    const tessera = await start({ emailAndPassword: { requireEmailVerification: true } })
    try {
      const browser = browserFor(tessera)
      const signedUp = await browser.post('/sign-up/email', {
        name: 'R',
        email: 'req@example.com',
        password: PASSWORD,
      })
      expect(signedUp.json).toMatchObject({ token: null })
      sink.clear()
      const refused = await browser.post('/sign-in/email', { email: 'req@example.com', password: PASSWORD })
      expect(refused.status).toBe(403)
      expect(refused.json).toEqual({ code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' })
      const link = linkIn(await mailTo('req@example.com', /verify/i), '/verify-email')
      await browser.open(link)
      const allowed = await browser.post('/sign-in/email', { email: 'req@example.com', password: PASSWORD })
      expect(allowed.status).toBe(200)
    } finally {
      await tessera.cleanup()
    }
  })
})

describe('password reset', () => {
  let tessera: TestTessera
  beforeEach(async () => {
    sink.clear()
    tessera = await start()
  })
  afterEach(() => tessera.cleanup())

  it('answers the same for known and unknown addresses', async () => {
    const browser = browserFor(tessera)
    await signUp(browser, 'known@example.com')
    const known = await browser.post('/request-password-reset', {
      email: 'known@example.com',
      redirectTo: '/reset',
    })
    const unknown = await browser.post('/forget-password', {
      email: 'nobody@example.com',
      redirectTo: '/reset',
    })
    expect(known.status).toBe(200)
    expect(known.json).toEqual(unknown.json)
    expect(known.json).toEqual({
      status: true,
      message: 'If this email exists in our system, check your email for the reset link',
    })
  })

  it('resets through the mailed link, once, and ends every other session', async () => {
    const laptop = browserFor(tessera)
    await signUp(laptop, 'reset@example.com')
    await laptop.post('/request-password-reset', {
      email: 'reset@example.com',
      redirectTo: '/reset-password',
    })
    const link = linkIn(await mailTo('reset@example.com', /reset/i), '/reset-password/')
    const landing = await browserFor(tessera).open(link)
    expect(landing.status).toBe(302)
    const location = String(landing.headers.location)
    expect(location).toMatch(/^\/reset-password\?token=[A-Za-z0-9]{24}$/)
    const token = new URL(location, 'http://x').searchParams.get('token')
    const same = await browserFor(tessera).post('/reset-password', { token, newPassword: PASSWORD })
    expect(same.status).toBe(400)
    expect(same.json).toMatchObject({ code: 'PASSWORD_SAME_AS_CURRENT' })
    expect((await laptop.get('/get-session')).json).not.toBeNull()

    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        browserFor(tessera).post('/reset-password', { token, newPassword: `new password ${i}` }),
      ),
    )
    expect(attempts.filter((a) => a.status === 200)).toHaveLength(1)
    for (const failed of attempts.filter((a) => a.status !== 200))
      expect(failed.json).toMatchObject({ code: 'INVALID_TOKEN' })

    expect((await laptop.get('/get-session')).json).toBeNull()
    const winner = attempts.findIndex((a) => a.status === 200)
    const signIn = await browserFor(tessera).post('/sign-in/email', {
      email: 'reset@example.com',
      password: `new password ${winner}`,
    })
    expect(signIn.status).toBe(200)
    const again = await browserFor(tessera).open(link)
    expect(again.headers.location).toBe('/reset-password?error=INVALID_TOKEN')
  })

  it('discards an expired token when it is looked up', async () => {
    let now = Date.now()
    const clocked = await startTessera({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'Tessera <no-reply@tessera.test>',
        BASE_URL: 'http://tessera.test',
      },
      clock: () => new Date(now),
    })
    try {
      const browser = browserFor(clocked)
      await signUp(browser, 'late@example.com')
      await browser.post('/request-password-reset', {
        email: 'late@example.com',
        redirectTo: '/reset-password',
      })
      const link = linkIn(await mailTo('late@example.com', /reset/i), '/reset-password/')
      const outstanding = () => clocked.ctx.db.selectFrom('one_time_tokens').selectAll().execute()
      expect(await outstanding()).toHaveLength(1)
      now += 3601 * 1000
      expect((await browser.open(link)).headers.location).toBe('/reset-password?error=INVALID_TOKEN')
      expect(await outstanding()).toHaveLength(0)
      const types = (await clocked.store.readAll({ tx: 0n, seq: 0n }, 100)).map((event) => event.type)
      expect(types).toContain('user.token-discarded')
    } finally {
      await clocked.cleanup()
    }
  })

  it('refuses a short new password and an unknown token', async () => {
    const browser = browserFor(tessera)
    const short = await browser.post('/reset-password', { token: 'x'.repeat(24), newPassword: 'short' })
    expect(short.json).toMatchObject({ code: 'PASSWORD_TOO_SHORT' })
    const unknown = await browser.post('/reset-password', {
      token: 'x'.repeat(24),
      newPassword: 'long enough password',
    })
    expect(unknown.status).toBe(400)
    expect(unknown.json).toMatchObject({ code: 'INVALID_TOKEN' })
  })
})

describe('profile and credentials', () => {
  let tessera: TestTessera
  beforeEach(async () => {
    sink.clear()
    tessera = await start()
  })
  afterEach(() => tessera.cleanup())

  it('updates the name but never the email', async () => {
    const browser = browserFor(tessera)
    await signUp(browser, 'profile@example.com', 'Old Name')
    expect((await browser.post('/update-user', { name: 'New Name' })).json).toEqual({ status: true })
    expect((await browser.get('/get-session')).json).toMatchObject({ user: { name: 'New Name' } })
    const refused = await browser.post('/update-user', { email: 'x@example.com' })
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({ code: 'EMAIL_CAN_NOT_BE_UPDATED', message: 'Email can not be updated' })
  })

  it('changes the password with the current one and can sign out other devices', async () => {
    const laptop = browserFor(tessera)
    await signUp(laptop, 'pw@example.com')
    const phone = browserFor(tessera)
    await phone.post('/sign-in/email', { email: 'pw@example.com', password: PASSWORD })
    const wrong = await laptop.post('/change-password', {
      currentPassword: 'not it at all',
      newPassword: 'another password',
    })
    expect(wrong.status).toBe(400)
    expect(wrong.json).toEqual({ code: 'INVALID_PASSWORD', message: 'Invalid password' })
    // The same password again changes nothing and must not sign the phone out.
    const same = await laptop.post('/change-password', {
      currentPassword: PASSWORD,
      newPassword: PASSWORD,
      revokeOtherSessions: true,
    })
    expect(same.status).toBe(400)
    expect(same.json).toEqual({
      code: 'PASSWORD_SAME_AS_CURRENT',
      message: 'New password must be different from the current one',
    })
    expect((await phone.get('/get-session')).json).not.toBeNull()
    const changed = await laptop.post('/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'another password',
      revokeOtherSessions: true,
    })
    expect(changed.status).toBe(200)
    expect(changed.json).toMatchObject({
      token: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      user: { email: 'pw@example.com' },
    })
    expect((await phone.get('/get-session')).json).toBeNull()
    expect((await laptop.get('/get-session')).json).not.toBeNull()
    const old = await browserFor(tessera).post('/sign-in/email', {
      email: 'pw@example.com',
      password: PASSWORD,
    })
    expect(old.status).toBe(401)
  })
})

describe('change email', () => {
  let tessera: TestTessera
  beforeEach(async () => {
    sink.clear()
    tessera = await start()
  })
  afterEach(() => tessera.cleanup())

  it('changes an unverified address at once and sends a verification to the new one', async () => {
    const browser = browserFor(tessera)
    await signUp(browser, 'before@example.com')
    const same = await browser.post('/change-email', { newEmail: 'BEFORE@example.com' })
    expect(same.json).toMatchObject({ code: 'EMAIL_IS_THE_SAME', message: 'Email is the same' })
    expect((await browser.post('/change-email', { newEmail: 'after@example.com' })).json).toEqual({
      status: true,
    })
    // The change is recorded just after the answer (command-api/account/change-email.ts).
    await expect
      .poll(async () => (await browser.get('/get-session')).json)
      .toMatchObject({
        user: { email: 'after@example.com', emailVerified: false },
      })
    await mailTo('after@example.com', /verify/i)
    // The old address is free again.
    expect(
      (
        await browserFor(tessera).post('/sign-up/email', {
          name: 'N',
          email: 'before@example.com',
          password: PASSWORD,
        })
      ).status,
    ).toBe(200)
  })

  it('neither gives away nor reveals an address that belongs to someone else', async () => {
    await signUp(browserFor(tessera), 'taken@example.com')
    const browser = browserFor(tessera)
    await signUp(browser, 'mine@example.com')
    expect((await browser.post('/change-email', { newEmail: 'taken@example.com' })).json).toEqual({
      status: true,
    })
    expect((await browser.get('/get-session')).json).toMatchObject({ user: { email: 'mine@example.com' } })
  })

  it('moves a verified address only after the current address confirms and the new one verifies', async () => {
    const browser = browserFor(tessera)
    const { user } = await signUp(browser, 'verified@example.com')
    // Verify first, through the real link.
    await browser.post('/send-verification-email', { email: 'verified@example.com' })
    await browser.open(linkIn(await mailTo('verified@example.com', /verify/i), '/verify-email'))
    sink.clear()

    expect(
      (await browser.post('/change-email', { newEmail: 'moved@example.com', callbackURL: '/account' })).json,
    ).toEqual({ status: true })
    expect((await browser.get('/get-session')).json).toMatchObject({
      user: { email: 'verified@example.com' },
    })
    const confirmation = await mailTo('verified@example.com', /.*/)
    const confirmed = await browser.open(linkIn(confirmation, '/verify-email'))
    expect(confirmed.headers.location).toBe('/account')
    expect((await browser.get('/get-session')).json).toMatchObject({
      user: { id: user.id, email: 'verified@example.com' },
    })
    const verification = await mailTo('moved@example.com', /.*/)
    await browser.open(linkIn(verification, '/verify-email'))
    expect((await browser.get('/get-session')).json).toMatchObject({
      user: { email: 'moved@example.com', emailVerified: true },
    })
  })
})

describe('account deletion', () => {
  it('mails a confirmation by default, and the link deletes the account', async () => {
    sink.clear()
    const tessera = await start()
    try {
      const browser = browserFor(tessera)
      await signUp(browser, 'leave@example.com')
      const wrong = await browser.post('/delete-user', { password: 'not my password' })
      expect(wrong.json).toEqual({ code: 'INVALID_PASSWORD', message: 'Invalid password' })
      const requested = await browser.post('/delete-user', { password: PASSWORD, callbackURL: '/goodbye' })
      expect(requested.json).toEqual({ success: true, message: 'Verification email sent' })
      const link = linkIn(await mailTo('leave@example.com', /.*/), '/delete-user/callback')
      const token = new URL(link).searchParams.get('token') ?? ''
      expect(token).toMatch(/^[0-9a-z]{32}$/)
      // Opened where nobody is signed in (a phone's mail app): the portal asks to sign in and
      // confirm, never raw JSON; an API client without a session gets better-auth's 404.
      const phone = await browserFor(tessera, { accept: 'text/html,application/xhtml+xml' }).open(link)
      expect(phone.status).toBe(302)
      expect(phone.headers.location).toBe(`/confirm-deletion?token=${token}&callbackURL=%2Fgoodbye`)
      const api = await browserFor(tessera).open(link)
      expect(api.status).toBe(404)
      expect(api.json).toEqual({ code: 'FAILED_TO_GET_USER_INFO', message: 'Failed to get user info' })
      const deleted = await browser.open(link)
      expect(deleted.headers.location).toBe('/goodbye')
      expect((await browser.get('/get-session')).json).toBeNull()
      // The same link again, signed out: the account is gone, so it is said to be invalid at once
      // rather than asking for a sign-in that cannot succeed.
      const again = await browserFor(tessera, { accept: 'text/html,application/xhtml+xml' }).open(link)
      expect(again.headers.location).toBe('/confirm-deletion?error=INVALID_TOKEN')
      const signIn = await browserFor(tessera).post('/sign-in/email', {
        email: 'leave@example.com',
        password: PASSWORD,
      })
      expect(signIn.status).toBe(401)
      expect(
        (
          await browserFor(tessera).post('/sign-up/email', {
            name: 'Again',
            email: 'leave@example.com',
            password: PASSWORD,
          })
        ).status,
      ).toBe(200)
    } finally {
      await tessera.cleanup()
    }
  })

  it('deletes at once when configured, with a fresh session', async () => {
    const tessera = await start({ user: { deleteUser: { immediate: true } } })
    try {
      const browser = browserFor(tessera)
      await signUp(browser, 'now@example.com')
      expect((await browser.post('/delete-user', {})).json).toEqual({
        success: true,
        message: 'User deleted',
      })
      expect((await browser.get('/get-session')).json).toBeNull()
      const { rows } = await tessera.ctx.db
        .selectFrom('users')
        .selectAll()
        .execute()
        .then((r) => ({ rows: r }))
      expect(rows).toHaveLength(0)
    } finally {
      await tessera.cleanup()
    }
  })
})
