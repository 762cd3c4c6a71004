/// Compatibility: better-auth 1.7.5's client with `oauthProviderClient` on Tessera's login and
/// consent pages. The plugin adds the page's signed query to every POST as `oauth_query`; here the
/// page is the `window.location` the plugin reads, set to the page Tessera sent the browser to.
/// Sign-in then answers with the way on (the consent page), and consent with the code.

import { oauthProviderClient } from '@better-auth/oauth-provider/client'
import { createAuthClient } from 'better-auth/client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestTessera } from '../support/tessera.js'
import { PASSWORD, REDIRECT_URI, registerClient, startProvider } from '../support/tessera-as-provider.js'
import { browserCookies } from './browser-cookies.js'

type Global = { window?: { location: { search: string; href: string } } }

/** The page the browser is on, as the plugin sees it. */
const onPage = (url: string) => {
  ;(globalThis as Global).window = { location: { search: new URL(url).search, href: url } }
}

describe('better-auth 1.7.5 oauthProviderClient against Tessera (pglite, loopback)', () => {
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startProvider()
  })
  afterEach(() => {
    delete (globalThis as Global).window
  })
  afterAll(() => tessera.cleanup())

  it('signs in on the login page and consents on the consent page; the client gets its code', async () => {
    const { client_id } = await registerClient(tessera)
    const { jar, fetchOptions } = browserCookies(tessera)
    const client = createAuthClient({
      baseURL: tessera.baseUrl,
      plugins: [oauthProviderClient()],
      fetchOptions,
    })
    const email = 'grace@example.com'
    expect((await client.signUp.email({ name: 'Grace', email, password: PASSWORD })).error).toBeNull()
    await client.signOut()

    const authorize = new URL(`${tessera.baseUrl}/api/auth/oauth2/authorize`)
    for (const [key, value] of Object.entries({
      response_type: 'code',
      client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'openid profile',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'abc',
    }))
      authorize.searchParams.set(key, value)
    // A fetch (not a navigation) is answered with the way on, as better-auth's plugin answers it.
    const first = await fetch(authorize, { headers: { cookie: jar.header() ?? '' } })
    expect(first.status).toBe(200)
    const loginPage = ((await first.json()) as { url: string }).url
    expect(new URL(loginPage).pathname).toBe('/oauth/login')

    onPage(loginPage)
    const signIn = await client.signIn.email({ email, password: PASSWORD })
    expect(signIn.error).toBeNull()
    const consentPage = (signIn.data as unknown as { redirect: boolean; url: string }).url
    expect(new URL(consentPage).pathname).toBe('/oauth/consent')

    onPage(consentPage)
    const consent = await client.$fetch<{ redirect: boolean; url: string }>('/oauth2/consent', {
      method: 'POST',
      body: { accept: true },
    })
    expect(consent.error).toBeNull()
    const back = new URL(consent.data?.url ?? '')
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI)
    expect(back.searchParams.get('state')).toBe('abc')
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{64}$/)
    expect(back.searchParams.get('iss')).toBe(`${tessera.baseUrl}/api/auth`)
  })
})
