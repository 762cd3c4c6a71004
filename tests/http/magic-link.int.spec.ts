/// Magic links on better-auth's wire, with links read from the real SMTP sink: a link signs in once,
/// an expired one is refused, it signs up a new person (or not, with disableSignUp), untrusted
/// callback URLs are refused, the token is stored only as its hash, and the mail routes are limited.

import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import { START } from '../../infra/event-store/event-store.js'
import { type Browser, browserFor } from '../support/browser.js'
import { mailTessera } from '../support/mail-tessera.js'

const mailed = mailTessera()
const start = mailed.start

const linkTo = async (address: string) => {
  const mail = await mailed.sink.waitForMail(
    (m) => m.to.includes(address) && /sign-in link/i.test(m.subject),
    15_000,
  )
  const link = mail.links.find((l) => l.includes('/magic-link/verify'))
  if (!link) throw new Error(`no magic link in ${mail.links.join(', ')}`)
  return link
}

const ask = (browser: Browser, body: Record<string, unknown>) => browser.post('/sign-in/magic-link', body)

describe('magic links', { timeout: 240_000 }, () => {
  it('mails a link that signs an existing account in once, and stores only its hash', async () => {
    await start()
    const owner = browserFor(mailed.tessera)
    await owner.post('/sign-up/email', {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse battery',
    })
    const browser = browserFor(mailed.tessera)
    const answer = await ask(browser, { email: 'ADA@example.com', callbackURL: '/dashboard' })
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ status: true })
    const link = await linkTo('ada@example.com')
    const url = new URL(link)
    expect(url.origin + url.pathname).toBe('http://tessera.test/api/auth/magic-link/verify')
    expect(url.searchParams.get('callbackURL')).toBe('/dashboard')
    const token = url.searchParams.get('token') ?? ''
    expect(token).toMatch(/^[A-Za-z]{32}$/)

    const landing = await browser.open(link)
    expect(landing.status).toBe(302)
    expect(landing.headers.location).toBe('/dashboard')
    expect((await browser.session())?.user).toMatchObject({ email: 'ada@example.com', emailVerified: true })

    const again = await browserFor(mailed.tessera).open(link)
    expect(again.status).toBe(302)
    expect(again.headers.location).toBe('/dashboard?error=INVALID_TOKEN')

    const events = await mailed.tessera.ctx.store.readAll(START, 10_000)
    const log = JSON.stringify(events.map(({ streamId, type, data }) => ({ streamId, type, data })))
    expect(log).not.toContain(token)
    expect(log).toContain(sha256Hex(token))
  })

  it('answers the session as JSON when the link names no callback', async () => {
    await start()
    await ask(browserFor(mailed.tessera), { email: 'bea@example.com', name: 'Bea' })
    const url = new URL(await linkTo('bea@example.com'))
    const token = url.searchParams.get('token') ?? ''
    const browser = browserFor(mailed.tessera)
    const answer = await browser.get(`/magic-link/verify?token=${token}`)
    expect(answer.status).toBe(200)
    const json = answer.json as {
      token: string
      user: { email: string; name: string }
      session: { token: string }
    }
    expect(json.user).toMatchObject({ email: 'bea@example.com', name: 'Bea', emailVerified: true })
    expect(json.session.token).toBe(json.token)
    expect((await browser.session())?.user).toMatchObject({ email: 'bea@example.com' })
  })

  it('refuses an expired link, to errorCallbackURL', async () => {
    await start({ magicLink: { expiresIn: 60 } })
    await ask(browserFor(mailed.tessera), {
      email: 'cy@example.com',
      callbackURL: '/in',
      errorCallbackURL: '/oops',
    })
    const link = await linkTo('cy@example.com')
    mailed.advance(61_000)
    const browser = browserFor(mailed.tessera)
    const landing = await browser.open(link)
    expect(landing.headers.location).toBe('/oops?error=INVALID_TOKEN')
    expect(await browser.session()).toBeNull()
  })

  it('signs a new person up with the name asked for, and sends them to newUserCallbackURL', async () => {
    await start()
    await ask(browserFor(mailed.tessera), {
      email: 'dee@example.com',
      name: 'Dee',
      callbackURL: '/home',
      newUserCallbackURL: '/welcome',
    })
    const browser = browserFor(mailed.tessera)
    const landing = await browser.open(await linkTo('dee@example.com'))
    expect(landing.headers.location).toBe('/welcome')
    expect((await browser.session())?.user).toMatchObject({
      email: 'dee@example.com',
      name: 'Dee',
      emailVerified: true,
    })
  })

  it('with disableSignUp, mails the link all the same but signs nobody new up', async () => {
    await start({ magicLink: { disableSignUp: true } })
    const answer = await ask(browserFor(mailed.tessera), { email: 'eve@example.com', callbackURL: '/home' })
    expect(answer.json).toEqual({ status: true })
    const browser = browserFor(mailed.tessera)
    const landing = await browser.open(await linkTo('eve@example.com'))
    expect(landing.headers.location).toBe('/home?error=new_user_signup_disabled')
    expect(await browser.session()).toBeNull()
  })

  it('refuses untrusted callback URLs, on the request and on the link', async () => {
    await start()
    const browser = browserFor(mailed.tessera)
    for (const field of ['callbackURL', 'newUserCallbackURL', 'errorCallbackURL']) {
      const answer = await ask(browser, { email: 'fay@example.com', [field]: 'https://evil.example/x' })
      expect(answer.status).toBe(403)
    }
    const verify = await browser.get('/magic-link/verify?token=abc&callbackURL=https://evil.example/')
    expect(verify.status).toBe(403)
    expect(verify.json).toMatchObject({ code: 'INVALID_CALLBACK_URL' })
  })

  it('ends the password and sessions of an account that had not proven its address', async () => {
    await start()
    const squatter = browserFor(mailed.tessera)
    const signUp = await squatter.post('/sign-up/email', {
      name: 'Not Gus',
      email: 'gus@example.com',
      password: 'correct horse battery',
    })
    expect(signUp.status).toBe(200)
    await ask(browserFor(mailed.tessera), { email: 'gus@example.com', callbackURL: '/' })
    const owner = browserFor(mailed.tessera)
    await owner.open(await linkTo('gus@example.com'))
    expect((await owner.session())?.user).toMatchObject({ email: 'gus@example.com', emailVerified: true })
    expect(await squatter.session()).toBeNull()
    const again = await browserFor(mailed.tessera).post('/sign-in/email', {
      email: 'gus@example.com',
      password: 'correct horse battery',
    })
    expect(again.status).toBe(401)
  })

  it('limits the requests per address and per IP', async () => {
    await start({}, { RATE_LIMIT: 'on' })
    const browser = browserFor(mailed.tessera)
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await ask(browser, { email: 'hal@example.com' })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})
