/// Issue 32, items 19 to 21, against a real OpenID provider (oidc-provider on loopback) and a real
/// SMTP sink: a new user whose provider does not vouch for the address is mailed a verification
/// link (emailVerification.sendOnSignUp), a code the provider refuses (invalid_grant) and an answer
/// naming another issuer (RFC 9207) go to the error URL with better-auth's codes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { userStream } from '../../domain/user/user.js'
import {
  freePort,
  signInAtProvider,
  startProvider,
  type TestProvider,
  type WebBrowser,
  webBrowser,
} from '../support/oidc-provider.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

describe('social sign-in on the wire, issue 32 (pglite)', { timeout: 120_000 }, () => {
  let provider: TestProvider
  let tessera: TestTessera
  let sink: SmtpSink
  let base: string

  beforeAll(async () => {
    sink = await startSmtpSink()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    provider = await startProvider([`${base}/api/auth/callback/acme`])
    tessera = await startTessera({
      listen: true,
      env: {
        PORT: String(port),
        BASE_URL: base,
        SMTP_URL: sink.url,
        ACME_CLIENT_SECRET: provider.clientSecret,
      },
      features: {
        emailVerification: { sendOnSignUp: true },
        socialProviders: {
          acme: {
            issuer: provider.issuer,
            clientId: provider.clientId,
            clientSecret: { env: 'ACME_CLIENT_SECRET' },
          },
        },
      },
    })
  }, 300_000)
  afterAll(async () => {
    await tessera?.cleanup()
    await provider?.close()
    await sink?.close()
  })

  const api = (path: string) => `${base}/api/auth${path}`
  const person = (login: string, emailVerified: boolean) =>
    provider.people.set(login, { email: `${login}@example.com`, emailVerified, name: login.toUpperCase() })
  /** Starts a sign-in; the authorization URL. */
  const start = async (browser: WebBrowser, body: Record<string, unknown> = {}) => {
    const answer = await browser.request('POST', api('/sign-in/social'), {
      json: { provider: 'acme', callbackURL: '/dashboard', errorCallbackURL: '/oops', ...body },
    })
    expect(answer.status, answer.body).toBe(200)
    return (JSON.parse(answer.body) as { url: string }).url
  }
  const session = async (browser: WebBrowser) =>
    JSON.parse((await browser.request('GET', api('/get-session'))).body) as {
      user: { id: string; emailVerified: boolean }
    } | null
  const eventTypes = async (userId: string) =>
    (await tessera.store.readStream(userStream(userId))).map((event) => event.type)

  it('mails a verification link to a new user whose provider does not vouch for the address (item 19)', async () => {
    person('una', false)
    const browser = webBrowser()
    const back = await signInAtProvider(browser, await start(browser), 'una')
    const landed = await browser.request('GET', back)
    expect(landed.location).toBe('/dashboard')
    const signedUp = await session(browser)
    expect(signedUp?.user.emailVerified).toBe(false)

    const mail = await sink.waitForMail((m) => m.to.includes('una@example.com'), 15_000)
    expect(mail.subject).toBe('Verify your email address')
    const link = mail.links.find((url) => url.includes('/verify-email?'))
    expect(link).toBeDefined()
    expect(new URL(link ?? '').searchParams.get('callbackURL')).toBe('/dashboard')
    const followed = await browser.request('GET', link ?? '')
    expect(followed.status).toBe(302)
    expect((await session(browser))?.user.emailVerified).toBe(true)
  })

  it('mails nothing to a new user whose provider verified the address', async () => {
    person('vera', true)
    const browser = webBrowser()
    const back = await signInAtProvider(browser, await start(browser), 'vera')
    expect((await browser.request('GET', back)).location).toBe('/dashboard')
    const signedUp = await session(browser)
    expect(signedUp?.user.emailVerified).toBe(true)
    expect(await eventTypes(signedUp?.user.id ?? '')).not.toContain('user.verification-email-requested')
  })

  it('sends a code the provider refuses with invalid_grant to the error URL as invalid_code (item 20)', async () => {
    person('gus', true)
    const browser = webBrowser()
    // A real code, used once by a completed sign-in…
    const back = await signInAtProvider(browser, await start(browser), 'gus')
    expect((await browser.request('GET', back)).location).toBe('/dashboard')
    // …then handed to Tessera again under a fresh state of the same browser.
    const state = new URL(await start(browser)).searchParams.get('state') ?? ''
    const replay = new URL(back)
    replay.searchParams.set('state', state)
    const errorsBefore = provider.grantErrors.length
    const answer = await browser.request('GET', replay.toString())
    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/oops?error=invalid_code')
    expect(provider.grantErrors.slice(errorsBefore)).toEqual(['invalid_grant'])
  })

  it('refuses an answer naming another issuer (RFC 9207) before exchanging its code (item 21)', async () => {
    person('ivy', true)
    const browser = webBrowser()
    const back = new URL(await signInAtProvider(browser, await start(browser), 'ivy'))
    expect(back.searchParams.get('iss')).toBe(provider.issuer)
    const codeGrants = provider.grants.get('authorization_code') ?? 0
    const mixedUp = new URL(back)
    mixedUp.searchParams.set('iss', 'https://evil.example')
    const answer = await browser.request('GET', mixedUp.toString())
    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/oops?error=issuer_mismatch')
    expect(provider.grants.get('authorization_code') ?? 0).toBe(codeGrants)
    expect(await session(browser)).toBeNull()
  })
})
