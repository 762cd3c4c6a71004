/// A mailed way in on the OpenID provider's login page for a person with two-factor on (issue 35):
/// the link (or code) is only the first step, and the authorization must survive the second. The
/// link lands on the portal's two-factor page carrying the signed request; the code sent there
/// with it goes on to the consent page and the client gets its code with its state.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type WebBrowser, webBrowser } from '../support/oidc-provider.js'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { freePort, REDIRECT_URI, registerClient, SERVER_KEY } from '../support/tessera-as-provider.js'
import { codeAt } from '../support/two-factor.js'

type Answer = Awaited<ReturnType<WebBrowser['request']>>
const PASSWORD = 'a good password'

describe('a mailed way in with two-factor on, from the OpenID login page', { timeout: 240_000 }, () => {
  let tessera: TestTessera
  let sink: SmtpSink
  let base: string
  let clientId: string

  beforeAll(async () => {
    sink = await startSmtpSink()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: base, SERVER_KEYS: `ops=${SERVER_KEY}`, SMTP_URL: sink.url },
      features: { oauthProvider: {} },
    })
    clientId = (await registerClient(tessera, { token_endpoint_auth_method: 'none' })).client_id
  }, 300_000)
  afterAll(async () => {
    await tessera?.cleanup()
    await sink?.close()
  })
  beforeEach(() => sink.clear())

  const api = (path: string) => `${base}/api/auth${path}`
  const post = (browser: WebBrowser, path: string, json: unknown) =>
    browser.request('POST', api(path), { json })
  const nextOf = (answer: Answer): URL => {
    expect([200, 302], answer.body).toContain(answer.status)
    return new URL(answer.next ?? (JSON.parse(answer.body) as { url: string }).url, base)
  }
  const mailTo = (address: string, subject: RegExp) =>
    sink.waitForMail((m) => m.to.includes(address) && subject.test(m.subject), 15_000)

  /** A person with two-factor on (confirmed with the code of the current step). */
  const enrolled = async (email: string) => {
    const owner = webBrowser()
    expect((await post(owner, '/sign-up/email', { name: 'Ada', email, password: PASSWORD })).status).toBe(200)
    const enabled = await post(owner, '/two-factor/enable', { password: PASSWORD })
    const { totpURI } = JSON.parse(enabled.body) as { totpURI: string }
    expect((await post(owner, '/two-factor/verify-totp', { code: codeAt(totpURI, new Date()) })).status).toBe(
      200,
    )
    return totpURI
  }

  const openLoginPage = async (browser: WebBrowser) => {
    const url = new URL(api('/oauth2/authorize'))
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      state: 'client-state',
      prompt: 'login',
    }).toString()
    const login = nextOf(await browser.request('GET', url.toString()))
    expect(login.pathname).toBe('/oauth/login')
    return login.search.slice(1)
  }

  /** The second step with the request it carries, then consent, then the client with its code. */
  const secondStepOnToClient = async (browser: WebBrowser, totpURI: string, oauth_query: string) => {
    const code = codeAt(totpURI, new Date(), 1)
    const verified = await post(browser, '/two-factor/verify-totp', { code, oauth_query })
    expect(verified.status, verified.body).toBe(200)
    expect(JSON.parse(verified.body)).toMatchObject({ redirect: true })
    const consent = nextOf(verified)
    expect(consent.pathname).toBe('/oauth/consent')
    const accepted = await post(browser, '/oauth2/consent', {
      accept: true,
      oauth_query: consent.search.slice(1),
    })
    const back = nextOf(accepted)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI)
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{64}$/)
    expect(back.searchParams.get('state')).toBe('client-state')
  }

  it('lands a mailed link on the two-factor page with the request, and goes on after the code', async () => {
    const email = 'link-2fa@example.com'
    const totpURI = await enrolled(email)
    const browser = webBrowser()
    const oauth_query = await openLoginPage(browser)
    const asked = await post(browser, '/sign-in/magic-link', { email, callbackURL: '/account', oauth_query })
    expect(asked.status, asked.body).toBe(200)
    const link = (await mailTo(email, /sign-in link/i)).links.find((l) => l.includes('/magic-link/verify'))
    const followed = nextOf(await browser.request('GET', link ?? ''))
    expect(`${followed.origin}${followed.pathname}`).toBe(`${base}/two-factor`)
    expect(followed.searchParams.get('client_id')).toBe(clientId)
    expect(followed.searchParams.get('state')).toBe('client-state')
    expect(followed.searchParams.has('sig')).toBe(true)
    // The link met the fresh login the client asked for; the request no longer asks for one.
    expect(followed.searchParams.has('prompt')).toBe(false)
    const signedRequest = followed.search.slice(1)

    const tampered = signedRequest.replace('client-state', 'evil-state')
    const refused = await post(browser, '/two-factor/verify-totp', {
      code: codeAt(totpURI, new Date(), 1),
      oauth_query: tampered,
    })
    expect(refused.status).toBe(400)
    await secondStepOnToClient(browser, totpURI, signedRequest)
  })

  it('keeps a mailed link begun elsewhere on the plain two-factor page', async () => {
    const email = 'link-2fa-plain@example.com'
    await enrolled(email)
    const browser = webBrowser()
    const asked = await post(browser, '/sign-in/magic-link', { email, callbackURL: '/account' })
    expect(asked.status, asked.body).toBe(200)
    const link = (await mailTo(email, /sign-in link/i)).links.find((l) => l.includes('/magic-link/verify'))
    const followed = nextOf(await browser.request('GET', link ?? ''))
    expect(followed.toString()).toBe(`${base}/two-factor`)
  })

  it('goes on after a mailed code and the second step', async () => {
    const email = 'code-2fa@example.com'
    const totpURI = await enrolled(email)
    const browser = webBrowser()
    const oauth_query = await openLoginPage(browser)
    expect((await post(browser, '/email-otp/send-verification-otp', { email, type: 'sign-in' })).status).toBe(
      200,
    )
    const otp = /Your code is (\d+)/.exec((await mailTo(email, /sign-in code/i)).text)?.[1]
    const first = await post(browser, '/sign-in/email-otp', { email, otp, oauth_query })
    expect(first.status, first.body).toBe(200)
    expect(JSON.parse(first.body)).toMatchObject({ twoFactorRedirect: true })
    await secondStepOnToClient(browser, totpURI, oauth_query)
  })
})
