/// Tessera as an OpenID provider (issue 35): what ends a client's grants, seen by relying parties
/// and resource servers. Deleting a client stops every refresh and access token it holds at once
/// (introspection by another client says inactive, userinfo 401, refresh refused); a person reads,
/// narrows and revokes their consent (`get-consent`, `update-consent`, `delete-consent`) and the
/// grants holding a scope they took back end with it.

import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { softwareAuthenticator } from '../../bench/software-authenticator.js'
import { type Browser, browserFor } from '../support/browser.js'
import { registerPasskey, signInWithPasskey } from '../support/passkeys.js'
import type { TestTessera } from '../support/tessera.js'
import {
  authorizeIn,
  REDIRECT_URI,
  registerClient,
  SERVER_KEY,
  signedUp,
  startProvider,
} from '../support/tessera-as-provider.js'

describe('Tessera as an OpenID provider: deleting a client, and a person changing their consent', () => {
  let tessera: TestTessera
  let browser: Browser
  /** A resource server: a confidential client that introspects others' tokens. */
  let resourceServer: oidc.Configuration

  const configure = async (client: { client_id: string; client_secret?: string }) =>
    oidc.discovery(
      new URL(`${tessera.baseUrl}/api/auth`),
      client.client_id,
      client.client_secret,
      undefined,
      {
        execute: [oidc.allowInsecureRequests],
      },
    )

  const codeFlow = async (config: oidc.Configuration, scope: string) => {
    const verifier = oidc.randomPKCECodeVerifier()
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
    })
    const back = await authorizeIn(browser, url)
    return oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: 'st' })
  }

  const userinfoStatus = async (accessToken: string) =>
    (
      await fetch(`${tessera.baseUrl}/api/auth/oauth2/userinfo`, {
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).status

  beforeAll(async () => {
    tessera = await startProvider()
    resourceServer = await configure(await registerClient(tessera, { client_name: 'Notes API' }))
    ;({ browser } = await signedUp(tessera))
  })
  afterAll(() => tessera?.cleanup())

  it('stops every token of a deleted client at once: introspection inactive, userinfo 401, refresh refused', async () => {
    const client = await registerClient(tessera, { client_name: 'Doomed' })
    const config = await configure(client)
    const tokens = await codeFlow(config, 'openid profile offline_access')
    const older = await codeFlow(config, 'openid offline_access')
    expect((await oidc.tokenIntrospection(resourceServer, tokens.access_token)).active).toBe(true)
    expect(await userinfoStatus(tokens.access_token)).toBe(200)

    const deleted = await tessera.api.request(
      'POST',
      '/oauth2/delete-client',
      { client_id: client.client_id },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(deleted.status, deleted.body).toBe(200)

    for (const access of [tokens.access_token, older.access_token]) {
      expect((await oidc.tokenIntrospection(resourceServer, access)).active).toBe(false)
      expect(await userinfoStatus(access)).toBe(401)
    }
    // The client itself is gone: the token endpoint answers 401 invalid_client.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({
      status: 401,
    })
    // The person's activity says why each grant ended.
    const activity = await browser.get('/activity?limit=50')
    expect(activity.body).toContain('client-deleted')
    // The other client's grants are untouched.
    const other = await codeFlow(resourceServer, 'openid')
    expect((await oidc.tokenIntrospection(resourceServer, other.access_token)).active).toBe(true)
  })

  it('reads one consent, narrows it (grants holding more end), and refuses scopes the client may not ask', async () => {
    const client = await registerClient(tessera, { client_name: 'Calendar' })
    const config = await configure(client)
    const wide = await codeFlow(config, 'openid email offline_access')

    const read = await browser.get(`/oauth2/get-consent?id=${client.client_id}`)
    expect(read.status, read.body).toBe(200)
    expect(read.json).toMatchObject({
      id: client.client_id,
      clientId: client.client_id,
      clientName: 'Calendar',
      scopes: ['openid', 'email', 'offline_access'],
    })

    const narrowed = await browser.post('/oauth2/update-consent', {
      id: client.client_id,
      update: { scopes: ['openid', 'offline_access'] },
    })
    expect(narrowed.status, narrowed.body).toBe(200)
    expect(narrowed.json).toMatchObject({ id: client.client_id, scopes: ['openid', 'offline_access'] })
    // The grant that holds `email` ended; its tokens are dead.
    expect((await oidc.tokenIntrospection(resourceServer, wide.access_token)).active).toBe(false)
    await expect(oidc.refreshTokenGrant(config, wide.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    })

    const tooMuch = await browser.post('/oauth2/update-consent', {
      id: client.client_id,
      update: { scopes: ['openid', 'no-such-scope'] },
    })
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.json).toMatchObject({ error: 'invalid_request' })
  })

  it("keeps grants within a narrowed consent, ends them all on delete-consent, and hides others' consents", async () => {
    const client = await registerClient(tessera, { client_name: 'Photos' })
    const config = await configure(client)
    const narrow = await codeFlow(config, 'openid offline_access')
    await browser.post('/oauth2/update-consent', {
      id: client.client_id,
      update: { scopes: ['openid', 'offline_access', 'profile'] },
    })
    expect((await oidc.tokenIntrospection(resourceServer, narrow.access_token)).active).toBe(true)
    // A refreshed grant is still a live one: deleting the consent ends it (its row is not rewritten
    // on a refresh, only on what changes its status).
    const refreshed = await oidc.refreshTokenGrant(config, narrow.refresh_token ?? '')
    const statuses = async () =>
      (
        await tessera.ctx.db
          .selectFrom('oauth_grants')
          .select('status')
          .where('client_id', '=', client.client_id)
          .execute()
      ).map((row) => row.status)
    // Exchanged and refreshed, the grant's row says only that it lives.
    expect(await statuses()).toEqual(['live'])

    // Another person cannot read or change this consent: it answers as an unknown one.
    const { browser: stranger } = await signedUp(tessera)
    const peek = await stranger.get(`/oauth2/get-consent?id=${client.client_id}`)
    expect(peek.status).toBe(404)
    expect(peek.json).toEqual({ error: 'not_found', error_description: 'no consent' })
    expect(
      (await stranger.post('/oauth2/update-consent', { id: client.client_id, update: { scopes: [] } }))
        .status,
    ).toBe(404)
    expect((await stranger.post('/oauth2/delete-consent', { id: client.client_id })).status).toBe(404)

    const revoked = await browser.post('/oauth2/delete-consent', { id: client.client_id })
    expect(revoked.status, revoked.body).toBe(200)
    expect((await oidc.tokenIntrospection(resourceServer, narrow.access_token)).active).toBe(false)
    expect((await oidc.tokenIntrospection(resourceServer, refreshed.access_token)).active).toBe(false)
    expect(await statuses()).toEqual(['revoked'])
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    })
    expect((await browser.get(`/oauth2/get-consent?id=${client.client_id}`)).status).toBe(404)
    const listed = (await browser.get('/oauth2/get-consents')).json as { clientId: string }[]
    expect(listed.map((consent) => consent.clientId)).not.toContain(client.client_id)
    // Unsigned callers are refused.
    const unsigned = await fetch(`${tessera.baseUrl}/api/auth/oauth2/get-consent?id=x`)
    expect(unsigned.status).toBe(401)
    expect(await unsigned.json()).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('says in the ID token how the person signed in: a passkey is amr hwk at acr 2; nothing recorded is acr 0', async () => {
    const config = await configure(await registerClient(tessera, { client_name: 'Wiki' }))
    const discovery = config.serverMetadata() as { acr_values_supported?: string[] }
    expect(discovery.acr_values_supported).toEqual(['0', '1', '2'])
    const plain = (await codeFlow(config, 'openid')).claims()
    expect(plain?.acr).toBe('0')
    expect(plain?.amr).toBeUndefined()

    const device = softwareAuthenticator({ origin: tessera.baseUrl, rpId: '127.0.0.1' })
    expect((await registerPasskey(browser, device)).status).toBe(200)
    const owner = browser
    browser = browserFor(tessera)
    const signedIn = await signInWithPasskey(browser, device)
    expect(signedIn.status, signedIn.body).toBe(200)
    const claims = (await codeFlow(config, 'openid')).claims()
    expect(claims?.amr).toEqual(['hwk'])
    expect(claims?.acr).toBe('2')
    browser = owner
  })
})
