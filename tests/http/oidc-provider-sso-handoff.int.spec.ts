/// The SSO hand-off from the OpenID provider's login page (issue 35): an enterprise sign-in started
/// there carries the signed request (`oauth_query`); after the organization's identity provider (a
/// real oidc-provider on loopback) the browser lands back at the authorization endpoint signed in,
/// and the client receives a code with its state.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  signInAtProvider,
  startProvider,
  type TestProvider,
  type WebBrowser,
  webBrowser,
} from '../support/oidc-provider.js'
import type { TestTessera } from '../support/tessera.js'
import { startTessera } from '../support/tessera.js'
import { freePort, REDIRECT_URI, registerClient, SERVER_KEY } from '../support/tessera-as-provider.js'

type Answer = Awaited<ReturnType<WebBrowser['request']>>

describe('the SSO hand-off from the OpenID login page', { timeout: 240_000 }, () => {
  let idp: TestProvider
  let tessera: TestTessera
  let base: string
  let clientId: string

  const api = (path: string) => `${base}/api/auth${path}`
  const post = (browser: WebBrowser, path: string, json: unknown) =>
    browser.request('POST', api(path), { json })
  const nextOf = (answer: Answer): URL => {
    expect([200, 302], answer.body).toContain(answer.status)
    return new URL(answer.next ?? (JSON.parse(answer.body) as { url: string }).url, base)
  }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    idp = await startProvider([`${base}/api/auth/sso/callback/acme-sso`])
    tessera = await startTessera({
      listen: true,
      env: {
        PORT: String(port),
        BASE_URL: base,
        TRUSTED_ORIGINS: idp.issuer,
        SERVER_KEYS: `ops=${SERVER_KEY}`,
      },
      features: { oauthProvider: {}, sso: { trustEmailVerified: true } },
    })
    clientId = (await registerClient(tessera, { token_endpoint_auth_method: 'none' })).client_id
    const owner = webBrowser()
    const signedUp = await post(owner, '/sign-up/email', {
      name: 'Owner',
      email: 'owner@example.com',
      password: 'correct horse battery',
    })
    expect(signedUp.status, signedUp.body).toBe(200)
    const created = await post(owner, '/organization/create', { name: 'Acme', slug: 'acme' })
    expect(created.status, created.body).toBe(200)
    const registered = await post(owner, '/sso/register', {
      providerId: 'acme-sso',
      issuer: idp.issuer,
      domain: 'acme.test',
      organizationId: (JSON.parse(created.body) as { id: string }).id,
      oidcConfig: { clientId: idp.clientId, clientSecret: idp.clientSecret },
    })
    expect(registered.status, registered.body).toBe(200)
    idp.people.set('ada', { email: 'ada@acme.test', emailVerified: true, name: 'Ada' })
  }, 300_000)
  afterAll(async () => {
    await tessera?.cleanup()
    await idp?.close()
  })

  it('carries oauth_query through the identity provider, and the client gets its code and state', async () => {
    const browser = webBrowser()
    const authorize = new URL(api('/oauth2/authorize'))
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
      state: 'client-state',
    }).toString()
    const login = nextOf(await browser.request('GET', authorize.toString()))
    expect(login.pathname).toBe('/oauth/login')
    const oauth_query = login.search.slice(1)

    const tampered = await post(browser, '/sign-in/sso', {
      providerId: 'acme-sso',
      oauth_query: oauth_query.replace('client-state', 'evil-state'),
    })
    expect(tampered.status).toBe(400)

    const started = await post(browser, '/sign-in/sso', {
      providerId: 'acme-sso',
      callbackURL: '/x',
      oauth_query,
    })
    expect(started.status, started.body).toBe(200)
    const { url } = JSON.parse(started.body) as { url: string }
    const callback = await signInAtProvider(browser, url, 'ada')
    const landed = nextOf(await browser.request('GET', callback))
    expect(landed.pathname).toBe('/api/auth/oauth2/authorize')
    expect(landed.searchParams.get('state')).toBe('client-state')

    const consent = nextOf(await browser.request('GET', landed.toString()))
    expect(consent.pathname).toBe('/oauth/consent')
    const accepted = await post(browser, '/oauth2/consent', {
      accept: true,
      oauth_query: consent.search.slice(1),
    })
    const back = nextOf(accepted)
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI)
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{64}$/)
    expect(back.searchParams.get('state')).toBe('client-state')
  })
})
