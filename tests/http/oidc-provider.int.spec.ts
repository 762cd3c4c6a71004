/// Tessera as an OpenID provider (issue 35), driven by `openid-client` 6 as a real relying party
/// over HTTP: discovery, the code flow with PKCE through the login and consent hand-off
/// (`oauth_query`), the ID token verified against /jwks, userinfo, refresh rotation and reuse
/// detection, revocation, introspection and end-session. The person's browser is a cookie jar.

import { createHash } from 'node:crypto'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from '../support/browser.js'
import type { TestTessera } from '../support/tessera.js'
import {
  authorizeIn,
  REDIRECT_URI,
  registerClient,
  signedUp,
  startProvider,
} from '../support/tessera-as-provider.js'

/** OpenID Connect Core 3.1.3.6 for the provider's default key (EdDSA, Ed25519: SHA-512). */
const atHashOf = (accessToken: string) =>
  createHash('sha512').update(accessToken).digest().subarray(0, 32).toString('base64url')

describe('Tessera as an OpenID provider, with openid-client as the relying party', () => {
  let tessera: TestTessera
  let config: oidc.Configuration
  let client: { client_id: string; client_secret?: string }
  let browser: Browser

  const codeFlow = async (scope = 'openid profile email offline_access') => {
    const verifier = oidc.randomPKCECodeVerifier()
    const nonce = oidc.randomNonce()
    const state = oidc.randomState()
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    })
    const back = await authorizeIn(browser, url)
    return oidc.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: scope.includes('openid'),
    })
  }

  beforeAll(async () => {
    tessera = await startProvider()
    client = await registerClient(tessera)
    config = await oidc.discovery(
      new URL(`${tessera.baseUrl}/api/auth`),
      client.client_id,
      client.client_secret,
      undefined,
      {
        execute: [oidc.allowInsecureRequests],
      },
    )
    ;({ browser } = await signedUp(tessera))
  })
  afterAll(() => tessera?.cleanup())

  it('publishes discovery at the API path, the RFC 8414 path and the root', async () => {
    const issuer = `${tessera.baseUrl}/api/auth`
    expect(config.serverMetadata().issuer).toBe(issuer)
    expect(config.serverMetadata().code_challenge_methods_supported).toEqual(['S256'])
    for (const path of [
      '/.well-known/oauth-authorization-server/api/auth',
      '/.well-known/openid-configuration',
    ]) {
      const response = await fetch(`${tessera.baseUrl}${path}`)
      expect(response.status, path).toBe(200)
      expect(((await response.json()) as { issuer: string }).issuer).toBe(issuer)
    }
  })

  it('signs a person in with code + PKCE; the ID token verifies against /jwks; userinfo answers', async () => {
    const tokens = await codeFlow()
    const claims = tokens.claims()
    expect(claims?.iss).toBe(`${tessera.baseUrl}/api/auth`)
    expect(claims?.aud).toBe(client.client_id)
    expect(claims?.email).toMatch(/@example\.com$/)
    expect(typeof claims?.auth_time).toBe('number')
    expect(tokens.refresh_token).toBeTruthy()
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub ?? '')
    expect(info.name).toBe('Ada Lovelace')
  })

  it('rotates the refresh token on every use; a spent one revokes the whole grant', async () => {
    const tokens = await codeFlow()
    const first = tokens.refresh_token ?? ''
    const second = await oidc.refreshTokenGrant(config, first)
    expect(second.refresh_token).not.toBe(first)
    // Each ID token's at_hash is its own access token's (the key's header is decoded once, then kept).
    for (const answer of [tokens, second])
      expect(answer.claims()?.at_hash).toBe(atHashOf(answer.access_token))
    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' })
    // The reuse ended the grant: the newest refresh token and the access tokens are dead too.
    await expect(oidc.refreshTokenGrant(config, second.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    })
    const introspected = await oidc.tokenIntrospection(config, second.access_token)
    expect(introspected.active).toBe(false)
  })

  it('introspects a live token, and revocation (RFC 7009) ends it; an unknown token is 200', async () => {
    const tokens = await codeFlow()
    const live = await oidc.tokenIntrospection(config, tokens.access_token)
    expect(live).toMatchObject({ active: true, client_id: client.client_id, sub: tokens.claims()?.sub })
    await oidc.tokenRevocation(config, tokens.refresh_token ?? '')
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false)
    await expect(oidc.tokenRevocation(config, 'no-such-token')).resolves.toBeUndefined()
  })

  it('end-session ends the Tessera session the ID token names', async () => {
    const tokens = await codeFlow()
    expect(await browser.session()).not.toBeNull()
    const url = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: 'http://127.0.0.1:9/signed-out',
      state: 'bye',
    })
    const response = await browser.open(url.toString())
    expect(response.status).toBe(302)
    expect(String(response.headers.location)).toBe('http://127.0.0.1:9/signed-out?state=bye')
    expect(await browser.session()).toBeNull()
    ;({ browser } = await signedUp(tessera))
  })
})
