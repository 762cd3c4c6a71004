/// Every way in on the OpenID provider's login page goes on with the authorization (issue 35): a
/// mailed code, a mailed link, a passkey and a social provider each take the signed request the
/// login page was opened with (`oauth_query`) and, once the person is signed in, the browser ends
/// at the client's redirect URI with a code and the client's state. A request whose signature does
/// not hold is refused before anything is sent or anyone signed in.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { softwareAuthenticator } from '../../bench/software-authenticator.js'
import {
  signInAtProvider,
  startProvider as startIdentityProvider,
  type TestProvider,
  type WebBrowser,
  webBrowser,
} from '../support/oidc-provider.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { freePort, REDIRECT_URI, registerClient, SERVER_KEY } from '../support/tessera-as-provider.js'

type Answer = Awaited<ReturnType<WebBrowser['request']>>

describe('the OpenID provider’s login page, every way in', { timeout: 240_000 }, () => {
  let tessera: TestTessera
  let idp: TestProvider
  let sink: SmtpSink
  let base: string
  let clientId: string

  beforeAll(async () => {
    sink = await startSmtpSink()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    idp = await startIdentityProvider([`${base}/api/auth/callback/acme`])
    tessera = await startTessera({
      listen: true,
      env: {
        PORT: String(port),
        BASE_URL: base,
        SERVER_KEYS: `ops=${SERVER_KEY}`,
        SMTP_URL: sink.url,
        ACME_CLIENT_SECRET: idp.clientSecret,
      },
      features: {
        oauthProvider: {},
        socialProviders: {
          acme: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: { env: 'ACME_CLIENT_SECRET' } },
        },
      },
    })
    clientId = (await registerClient(tessera, { token_endpoint_auth_method: 'none' })).client_id
  }, 300_000)
  afterAll(async () => {
    await tessera?.cleanup()
    await idp?.close()
    await sink?.close()
  })
  beforeEach(() => sink.clear())

  const api = (path: string) => `${base}/api/auth${path}`
  const post = (browser: WebBrowser, path: string, json: unknown) =>
    browser.request('POST', api(path), { json })
  /** Where an answer sends the browser: its redirect, or the `{redirect, url}` a fetch is given. */
  const nextOf = (answer: Answer): URL => {
    expect([200, 302], answer.body).toContain(answer.status)
    return new URL(answer.next ?? (JSON.parse(answer.body) as { url: string }).url, base)
  }

  /** The client sends the browser to the authorization endpoint; the login page's signed request. */
  const openLoginPage = async (browser: WebBrowser, extra: Record<string, string> = {}) => {
    const url = new URL(api('/oauth2/authorize'))
    const params = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      state: 'client-state',
      ...extra,
    }
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
    const login = nextOf(await browser.request('GET', url.toString()))
    expect(login.pathname).toBe('/oauth/login')
    return login.search.slice(1)
  }

  /** From where a sign-in sent the browser, through the consent page, to the client with its code. */
  const onToClient = async (browser: WebBrowser, from: URL) => {
    let at = from
    if (at.pathname === '/api/auth/oauth2/authorize') at = nextOf(await browser.request('GET', at.toString()))
    expect(at.pathname).toBe('/oauth/consent')
    const consent = await post(browser, '/oauth2/consent', { accept: true, oauth_query: at.search.slice(1) })
    const back = nextOf(consent)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI)
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{64}$/)
    expect(back.searchParams.get('state')).toBe('client-state')
    return back
  }

  const mailTo = (address: string, subject: RegExp) =>
    sink.waitForMail((m) => m.to.includes(address) && subject.test(m.subject), 15_000)

  it('goes on after a mailed code: the sign-in answers the way on instead of the session', async () => {
    const browser = webBrowser()
    const oauth_query = await openLoginPage(browser)
    const email = 'code@example.com'
    expect((await post(browser, '/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(
      200,
    )
    const otp = /Your code is (\d+)/.exec((await mailTo(email, /sign-in code/i)).text)?.[1]
    const signedIn = await post(browser, '/sign-in/email-otp', { email, otp, oauth_query })
    expect(signedIn.status, signedIn.body).toBe(200)
    expect(JSON.parse(signedIn.body)).toMatchObject({ redirect: true })
    await onToClient(browser, nextOf(signedIn))
  })

  it('goes on after a mailed link, even when the client asked for a fresh login', async () => {
    const browser = webBrowser()
    const oauth_query = await openLoginPage(browser, { prompt: 'login', max_age: '0' })
    const email = 'link@example.com'
    const asked = await post(browser, '/sign-in/magic-link', { email, callbackURL: '/account', oauth_query })
    expect(asked.status, asked.body).toBe(200)
    const link = (await mailTo(email, /sign-in link/i)).links.find((l) => l.includes('/magic-link/verify'))
    const followed = nextOf(await browser.request('GET', link ?? ''))
    // Back at the authorization endpoint with the client's request, without what the link just met.
    expect(followed.pathname).toBe('/api/auth/oauth2/authorize')
    expect(followed.searchParams.get('state')).toBe('client-state')
    expect(followed.searchParams.has('prompt')).toBe(false)
    await onToClient(browser, followed)
  })

  it('refuses a mailed link asked with a tampered request, and sends nothing', async () => {
    const browser = webBrowser()
    const oauth_query = (await openLoginPage(browser)).replace('client-state', 'evil-state')
    const email = 'tampered@example.com'
    const asked = await post(browser, '/sign-in/magic-link', { email, oauth_query })
    expect(asked.status).toBe(400)
    expect(JSON.parse(asked.body)).toMatchObject({ code: 'INVALID_SIGNATURE' })
    await expect(sink.waitForMail((m) => m.to.includes(email), 2_000)).rejects.toThrow()
  })

  it('goes on after a passkey', async () => {
    const owner = webBrowser()
    const email = 'passkey@example.com'
    expect(
      (await post(owner, '/sign-up/email', { name: 'Ada', email, password: 'a good password' })).status,
    ).toBe(200)
    const device = softwareAuthenticator({ origin: base, rpId: new URL(base).hostname })
    const registerOptions = JSON.parse(
      (await owner.request('GET', api('/passkey/generate-register-options'))).body,
    )
    const registered = await post(owner, '/passkey/verify-registration', {
      response: device.create(registerOptions).response,
    })
    expect(registered.status, registered.body).toBe(200)

    const browser = webBrowser()
    const oauth_query = await openLoginPage(browser)
    const options = JSON.parse(
      (await browser.request('GET', api('/passkey/generate-authenticate-options'))).body,
    )
    const signedIn = await post(browser, '/passkey/verify-authentication', {
      response: device.get(options),
      oauth_query,
    })
    expect(signedIn.status, signedIn.body).toBe(200)
    expect(JSON.parse(signedIn.body)).toMatchObject({ redirect: true })
    await onToClient(browser, nextOf(signedIn))
  })

  it('goes on after a social provider’s callback', async () => {
    idp.people.set('grace', { email: 'grace@example.com', emailVerified: true, name: 'Grace' })
    const browser = webBrowser()
    const oauth_query = await openLoginPage(browser)
    const started = await post(browser, '/sign-in/social', {
      provider: 'acme',
      callbackURL: '/account',
      disableRedirect: true,
      oauth_query,
    })
    expect(started.status, started.body).toBe(200)
    const back = await signInAtProvider(browser, (JSON.parse(started.body) as { url: string }).url, 'grace')
    const landed = nextOf(await browser.request('GET', back))
    expect(landed.pathname).toBe('/api/auth/oauth2/authorize')
    await onToClient(browser, landed)
  })
})
