/// Tessera as an OpenID provider (issue 35): the code flow driven by `oauth4webapi` for a public
/// client through the login page hand-off (sign-in takes `oauth_query` back and the authorization
/// goes on), and every RFC 6749 / OpenID Connect error on its case.

import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import type { TestTessera } from '../support/tessera.js'
import {
  authorizeIn,
  PASSWORD,
  REDIRECT_URI,
  registerClient,
  SERVER_KEY,
  signedUp,
  startProvider,
} from '../support/tessera-as-provider.js'

const form = (
  tessera: TestTessera,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  fetch(`${tessera.baseUrl}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  }).then(async (response) => ({
    status: response.status,
    json: (await response.json()) as Record<string, unknown>,
  }))

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
})

describe('Tessera as an OpenID provider: oauth4webapi, the login hand-off, and the errors', () => {
  let tessera: TestTessera
  let as: oauth.AuthorizationServer
  let publicClient: { client_id: string }
  let confidential: { client_id: string; client_secret?: string }

  const authorizeUrl = (clientId: string, extra: Record<string, string> = {}, challenge = 'x'.repeat(43)) => {
    const url = new URL(`${tessera.baseUrl}/api/auth/oauth2/authorize`)
    const params = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
      ...extra,
    }
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
    return url
  }

  beforeAll(async () => {
    tessera = await startProvider()
    publicClient = await registerClient(tessera, { token_endpoint_auth_method: 'none' })
    confidential = await registerClient(tessera)
    const issuer = new URL(`${tessera.baseUrl}/api/auth`)
    const response = await oauth.discoveryRequest(issuer, {
      algorithm: 'oidc',
      [oauth.allowInsecureRequests]: true,
    })
    as = await oauth.processDiscoveryResponse(issuer, response)
  })
  afterAll(() => tessera?.cleanup())

  it('signs a person in through the login page: sign-in takes oauth_query and the flow goes on', async () => {
    const verifier = oauth.generateRandomCodeVerifier()
    const challenge = await oauth.calculatePKCECodeChallenge(verifier)
    const { email } = await signedUp(tessera)
    const browser = browserFor(tessera)
    const first = await browser.open(authorizeUrl(publicClient.client_id, {}, challenge).toString())
    expect(first.status).toBe(302)
    const login = new URL(String(first.headers.location))
    expect(login.pathname).toBe('/oauth/login')
    const signIn = await browser.post('/sign-in/email', {
      email,
      password: PASSWORD,
      oauth_query: login.search.slice(1),
    })
    expect(signIn.status, signIn.body).toBe(200)
    const consentPage = new URL((signIn.json as { url: string }).url)
    expect(consentPage.pathname).toBe('/oauth/consent')
    const consent = await browser.post('/oauth2/consent', {
      accept: true,
      oauth_query: consentPage.search.slice(1),
    })
    const back = new URL((consent.json as { url: string }).url)
    const client: oauth.Client = { client_id: publicClient.client_id }
    const params = oauth.validateAuthResponse(as, client, back, 'st')
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT_URI,
      verifier,
      {
        [oauth.allowInsecureRequests]: true,
      },
    )
    const result = await oauth.processAuthorizationCodeResponse(as, client, response)
    expect(oauth.getValidatedIdTokenClaims(result)?.email).toBe(email)
    // A tampered signed request is refused before anyone signs in.
    const forged = await browserFor(tessera).post('/sign-in/email', {
      email,
      password: PASSWORD,
      oauth_query: login.search.slice(1).replace('state=st', 'state=evil'),
    })
    expect(forged.status).toBe(400)
  })

  it('sends login_required, consent_required, invalid_scope, access_denied and invalid_request back to the client', async () => {
    const signedOut = browserFor(tessera)
    const none = await signedOut.open(authorizeUrl(confidential.client_id, { prompt: 'none' }).toString())
    expect(new URL(String(none.headers.location)).searchParams.get('error')).toBe('login_required')
    const { browser } = await signedUp(tessera)
    const noConsent = await browser.open(authorizeUrl(confidential.client_id, { prompt: 'none' }).toString())
    const noConsentUrl = new URL(String(noConsent.headers.location))
    expect(noConsentUrl.searchParams.get('error')).toBe('consent_required')
    expect(noConsentUrl.searchParams.get('state')).toBe('st')
    const scope = await browser.open(
      authorizeUrl(confidential.client_id, { scope: 'openid admin' }).toString(),
    )
    expect(new URL(String(scope.headers.location)).searchParams.get('error')).toBe('invalid_scope')
    const plain = await browser.open(
      authorizeUrl(confidential.client_id, { code_challenge_method: 'plain' }).toString(),
    )
    expect(new URL(String(plain.headers.location)).searchParams.get('error')).toBe('invalid_request')
    const consentPage = new URL(
      String((await browser.open(authorizeUrl(confidential.client_id).toString())).headers.location),
    )
    const denied = await browser.post('/oauth2/consent', {
      accept: false,
      oauth_query: consentPage.search.slice(1),
    })
    expect(new URL((denied.json as { url: string }).url).searchParams.get('error')).toBe('access_denied')
    // A redirect URI that is not registered exactly never receives anything.
    const elsewhere = await browser.open(
      authorizeUrl(confidential.client_id, { redirect_uri: `${REDIRECT_URI}/x` }).toString(),
    )
    expect(String(elsewhere.headers.location)).toContain('/api/auth/error?error=invalid_redirect')
  })

  it('answers the token endpoint errors: invalid_grant, invalid_client, invalid_request, unsupported_grant_type', async () => {
    const verifier = oauth.generateRandomCodeVerifier()
    const { browser } = await signedUp(tessera)
    const back = await authorizeIn(
      browser,
      authorizeUrl(confidential.client_id, {}, await oauth.calculatePKCECodeChallenge(verifier)),
    )
    const code = back.searchParams.get('code') ?? ''
    const secret = confidential.client_secret ?? ''
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }
    const wrongSecret = await form(tessera, '/oauth2/token', exchange, basic(confidential.client_id, 'wrong'))
    expect([wrongSecret.status, wrongSecret.json.error]).toEqual([401, 'invalid_client'])
    const unknown = await form(tessera, '/oauth2/token', exchange, basic('no-such-client', secret))
    expect([unknown.status, unknown.json.error]).toEqual([401, 'invalid_client'])
    const noVerifier = await form(
      tessera,
      '/oauth2/token',
      { ...exchange, code_verifier: '' },
      basic(confidential.client_id, secret),
    )
    expect(noVerifier.json.error).toBe('invalid_request')
    const password = await form(
      tessera,
      '/oauth2/token',
      { grant_type: 'password' },
      basic(confidential.client_id, secret),
    )
    expect([password.status, password.json.error]).toEqual([400, 'unsupported_grant_type'])
    const first = await form(tessera, '/oauth2/token', exchange, basic(confidential.client_id, secret))
    expect(first.status).toBe(200)
    const second = await form(tessera, '/oauth2/token', exchange, basic(confidential.client_id, secret))
    expect([second.status, second.json.error]).toEqual([400, 'invalid_grant'])
    // The second use revoked what the first gave.
    const introspected = await form(
      tessera,
      '/oauth2/introspect',
      { token: String(first.json.access_token) },
      basic(confidential.client_id, secret),
    )
    expect(introspected.json.active).toBe(false)
  })

  it('issues client-credentials tokens to confidential clients only', async () => {
    const machine = await registerClient(tessera, { grant_types: ['client_credentials'], redirect_uris: [] })
    const ok = await form(
      tessera,
      '/oauth2/token',
      { grant_type: 'client_credentials' },
      basic(machine.client_id, machine.client_secret ?? ''),
    )
    expect(ok.status, JSON.stringify(ok.json)).toBe(200)
    const live = await form(
      tessera,
      '/oauth2/introspect',
      { token: String(ok.json.access_token) },
      basic(machine.client_id, machine.client_secret ?? ''),
    )
    expect(live.json).toMatchObject({ active: true, sub: machine.client_id })
    const refused = await form(tessera, '/oauth2/token', {
      grant_type: 'client_credentials',
      client_id: publicClient.client_id,
    })
    expect(refused.json.error).toBe('unauthorized_client')
  })

  it('registers clients dynamically (RFC 7591) for a signed-in person; the secret is shown once', async () => {
    const anonymous = await tessera.api.request('POST', '/oauth2/register', { redirect_uris: [REDIRECT_URI] })
    expect([anonymous.status, (anonymous.json as { error: string }).error]).toEqual([401, 'invalid_token'])
    const { browser } = await signedUp(tessera)
    const made = await browser.post('/oauth2/register', {
      redirect_uris: [REDIRECT_URI],
      client_name: 'Mine',
    })
    expect(made.status).toBe(201)
    const { client_id, client_secret } = made.json as { client_id: string; client_secret: string }
    expect(client_secret).toMatch(/^[A-Za-z0-9]{48}$/)
    const read = await browser.get(`/oauth2/get-client?client_id=${client_id}`)
    expect(read.json).toMatchObject({ client_id, client_name: 'Mine' })
    expect(read.json).not.toHaveProperty('client_secret')
    const other = await signedUp(tessera)
    expect((await other.browser.get(`/oauth2/get-client?client_id=${client_id}`)).status).toBe(404)
    const rotated = await browser.post('/oauth2/client/rotate-secret', { client_id })
    expect((rotated.json as { client_secret: string }).client_secret).not.toBe(client_secret)
  })

  it("answers a guard's refusal on a provider route in the API's shape, never a 500", async () => {
    // A server key with a cookie looks like a browser: refused 403, in `{code, message}`.
    const refused = await tessera.api.request(
      'POST',
      '/admin/oauth2/create-client',
      { client_name: 'Mixed', redirect_uris: [REDIRECT_URI] },
      { 'x-tessera-server-key': SERVER_KEY, cookie: 'better-auth.session_token=x.y' },
    )
    expect([refused.status, refused.json]).toEqual([
      403,
      { code: 'SERVER_KEY_FROM_BROWSER', message: expect.any(String) },
    ])
  })
})
