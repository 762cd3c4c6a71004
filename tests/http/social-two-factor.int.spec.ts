/// A social sign-in is a first factor like a password: a person whose second factor is on comes back
/// from the provider (a real oidc-provider on loopback) to the second-step page with the two-factor
/// cookie and no session, and signs in with their authenticator code. The id-token sign-in answers
/// `twoFactorRedirect` the same way.

import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { metadataFor } from '../../domain/shared/metadata.js'
import { userDecider, userStream } from '../../domain/user/user.js'
import {
  freePort,
  signInAtProvider,
  startProvider,
  type TestProvider,
  type WebBrowser,
  webBrowser,
} from '../support/oidc-provider.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { codeAt, PASSWORD } from '../support/two-factor.js'

describe('social sign-in of a person with two-factor on (pglite)', () => {
  let provider: TestProvider
  let tessera: TestTessera
  let base: string
  let testClientRedirect: string

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    testClientRedirect = `${base}/test-client/callback`
    provider = await startProvider([`${base}/api/auth/callback/acme`, testClientRedirect])
    tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: base, ACME_CLIENT_SECRET: provider.clientSecret },
      features: {
        socialProviders: {
          acme: {
            issuer: provider.issuer,
            clientId: provider.clientId,
            clientSecret: { env: 'ACME_CLIENT_SECRET' },
          },
        },
      },
    })
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await provider?.close()
  })

  const api = (path: string) => `${base}/api/auth${path}`
  const post = async (browser: WebBrowser, path: string, json: Record<string, unknown>) => {
    const answer = await browser.request('POST', api(path), { json })
    return { status: answer.status, json: JSON.parse(answer.body || 'null') as Record<string, unknown> }
  }
  const sessionOf = async (browser: WebBrowser) => {
    const answer = await browser.request('GET', api('/get-session'))
    return JSON.parse(answer.body) as { user: { email: string }; session: { amr?: string[] } } | null
  }
  const cookieNames = (browser: WebBrowser) =>
    (browser.jarOf(base).header() ?? '').split('; ').map((pair) => pair.split('=')[0])

  /** A person with a password and a verified address, the provider's own, and TOTP on. */
  const enrolled = async (login: string) => {
    const email = `${login}@example.com`
    provider.people.set(login, { email, emailVerified: true, name: login })
    const local = webBrowser()
    const signedUp = await post(local, '/sign-up/email', { name: login, email, password: PASSWORD })
    expect(signedUp.status).toBe(200)
    const userId = (signedUp.json.user as { id: string }).id
    await tessera.ctx.handle(
      userDecider,
      userStream(userId),
      { type: 'verify-email', email },
      {
        metadata: metadataFor(
          { requestId: 'test', ip: null, userAgent: null },
          { type: 'system' },
          new Date(),
        ),
      },
    )
    const enabled = await post(local, '/two-factor/enable', { password: PASSWORD })
    const totpURI = enabled.json.totpURI as string
    expect((await post(local, '/two-factor/verify-totp', { code: codeAt(totpURI, new Date()) })).status).toBe(
      200,
    )
    return { email, totpURI }
  }

  it('sends the callback to the second-step page with the two-factor cookie and no session', async () => {
    const { email, totpURI } = await enrolled('ada')
    const browser = webBrowser()
    const started = await post(browser, '/sign-in/social', { provider: 'acme', callbackURL: '/dashboard' })
    const back = await signInAtProvider(browser, started.json.url as string, 'ada')
    const landed = await browser.request('GET', back)
    expect(landed.status).toBe(302)
    expect(landed.location).toBe(`${base}/two-factor`)
    expect(cookieNames(browser)).toContain('better-auth.two_factor')
    expect(cookieNames(browser)).not.toContain('better-auth.session_token')
    expect(await sessionOf(browser)).toBeNull()

    // The next step's code (the first one was spent turning the factor on).
    const verified = await post(browser, '/two-factor/verify-totp', { code: codeAt(totpURI, new Date(), 1) })
    expect(verified.status).toBe(200)
    expect(verified.json).toMatchObject({ token: expect.any(String), user: { email } })
    expect((await sessionOf(browser))?.user.email).toBe(email)
    // The session records both factors: the provider, then the authenticator app.
    const factors = await browser.request('GET', api('/session-factors'))
    const own = JSON.parse(factors.body) as { id: string; amr: string[] | null }[]
    expect(own.map((session) => session.amr)).toContainEqual(['social', 'totp', 'mfa'])
    // The session sign-up opened says nothing it did not record (no first factor was checked).
    expect(own.map((session) => session.amr)).toContainEqual(null)
  })

  it('answers an id-token sign-in with twoFactorRedirect and no session', async () => {
    const { email } = await enrolled('bea')
    const config = await client.discovery(
      new URL(provider.issuer),
      provider.clientId,
      provider.clientSecret,
      undefined,
      { execute: [client.allowInsecureRequests] },
    )
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: testClientRedirect,
      scope: 'openid email profile',
      state,
      nonce: 'nonce-for-bea',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    const back = await signInAtProvider(webBrowser(), url.toString(), 'bea')
    const tokens = await client.authorizationCodeGrant(config, new URL(back), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: 'nonce-for-bea',
    })
    const browser = webBrowser()
    const answer = await post(browser, '/sign-in/social', {
      provider: 'acme',
      idToken: { token: tokens.id_token, nonce: 'nonce-for-bea', accessToken: tokens.access_token },
    })
    expect(answer.status, JSON.stringify(answer.json)).toBe(200)
    expect(answer.json).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'otp'] })
    expect(cookieNames(browser)).toContain('better-auth.two_factor')
    expect(await sessionOf(browser)).toBeNull()
    expect(email).toBe('bea@example.com')
  })
})
