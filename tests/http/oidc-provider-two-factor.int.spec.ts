/// An authorization through the OpenID provider's login page goes on through the second step: the
/// sign-in answers `twoFactorRedirect` (no session, the request not yet continued), and the code,
/// sent with the same `oauth_query` as better-auth's oauthProviderClient sends it, answers
/// `{redirect: true, url}` towards the consent page, as the sign-in would have without a second step.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import type { TestTessera } from '../support/tessera.js'
import { REDIRECT_URI, registerClient, startProvider } from '../support/tessera-as-provider.js'
import { codeAt, enrolled, PASSWORD } from '../support/two-factor.js'

describe('the OpenID provider’s login through the second step', () => {
  let tessera: TestTessera
  let clientId: string

  beforeAll(async () => {
    tessera = await startProvider()
    clientId = (await registerClient(tessera, { token_endpoint_auth_method: 'none' })).client_id
  })
  afterAll(() => tessera?.cleanup())

  it('carries oauth_query through verify-totp to the consent page', async () => {
    const { email, totpURI } = await enrolled(tessera, 'ada-oauth@example.com', new Date())
    const url = new URL(`${tessera.baseUrl}/api/auth/oauth2/authorize`)
    const params = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      state: 'st',
    }
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
    const browser = browserFor(tessera)
    const login = new URL(String((await browser.open(url.toString())).headers.location))
    expect(login.pathname).toBe('/oauth/login')
    const oauth_query = login.search.slice(1)

    const signIn = await browser.post('/sign-in/email', { email, password: PASSWORD, oauth_query })
    expect(signIn.status, signIn.body).toBe(200)
    expect(signIn.json).toMatchObject({ twoFactorRedirect: true })

    const tampered = await browser.post('/two-factor/verify-totp', {
      code: codeAt(totpURI, new Date(), 1),
      oauth_query: oauth_query.replace('state=st', 'state=evil'),
    })
    expect(tampered.status).toBe(400)
    expect(tampered.json).toMatchObject({ code: 'INVALID_SIGNATURE' })

    const verified = await browser.post('/two-factor/verify-totp', {
      code: codeAt(totpURI, new Date(), 1),
      oauth_query,
    })
    expect(verified.status, verified.body).toBe(200)
    expect(verified.json).toMatchObject({ redirect: true })
    const next = new URL((verified.json as { url: string }).url)
    expect(next.pathname).toBe('/oauth/consent')
    expect(next.searchParams.get('client_id')).toBe(clientId)
  })
})
