/// Social sign-in over HTTP against a real OpenID provider (oidc-provider on loopback, a
/// confidential client, PKCE, refresh tokens). A fetch-driven browser walks the provider's own login
/// and consent pages. Covers sign-up, returning sign-in, linking by verified email and its refusals,
/// state replay and cross-browser state, provider errors, a failed code exchange, id-token sign-in,
/// link and unlink, and provider tokens (get-access-token with a real refresh, account-info).

import { createHash } from 'node:crypto'
import { sql } from 'kysely'
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

const PASSWORD = 'correct horse battery'
const SERVER_KEY = 'server-key-for-the-social-tests-0123456789'

describe('social sign-in against a real OpenID provider (pglite)', () => {
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
      env: {
        PORT: String(port),
        BASE_URL: base,
        ACME_CLIENT_SECRET: provider.clientSecret,
        SERVER_KEYS: `backend=${SERVER_KEY}`,
      },
      features: {
        session: { freshAge: 3600 },
        user: { deleteUser: { enabled: true, immediate: true } },
        socialProviders: {
          acme: {
            issuer: provider.issuer,
            clientId: provider.clientId,
            clientSecret: { env: 'ACME_CLIENT_SECRET' },
            scopes: ['offline_access'],
          },
          // No secret anywhere: warned about and not offered.
          github: { clientId: 'gh-id', clientSecret: { env: 'UNSET_GITHUB_SECRET' } },
        },
      },
    })
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await provider?.close()
  })

  const api = (path: string) => `${base}/api/auth${path}`
  const person = (login: string, emailVerified = true, email = `${login}@example.com`) =>
    provider.people.set(login, { email, emailVerified, name: login.toUpperCase() })

  const start = async (browser: WebBrowser, path: string, body: Record<string, unknown> = {}) => {
    const answer = await browser.request('POST', api(path), {
      json: { provider: 'acme', callbackURL: '/dashboard', ...body },
    })
    expect(answer.status, answer.body).toBe(200)
    return JSON.parse(answer.body) as { url: string; redirect: boolean }
  }
  /** The whole journey: start, the provider's pages, back to Tessera; where Tessera sends the browser. */
  const socialSignIn = async (browser: WebBrowser, login: string, body: Record<string, unknown> = {}) => {
    const { url } = await start(browser, '/sign-in/social', body)
    const back = await signInAtProvider(browser, url, login)
    const landed = await browser.request('GET', back)
    expect(landed.status).toBe(302)
    return { back, location: landed.location ?? '' }
  }
  const session = async (browser: WebBrowser) => {
    const answer = await browser.request('GET', api('/get-session'))
    return JSON.parse(answer.body) as { user: { id: string; email: string; emailVerified: boolean } } | null
  }
  const accounts = async (browser: WebBrowser) => {
    const answer = await browser.request('GET', api('/list-accounts'))
    expect(answer.status).toBe(200)
    return JSON.parse(answer.body) as {
      id: string
      providerId: string
      accountId: string
      scopes: string[]
    }[]
  }
  const signUpWithPassword = async (browser: WebBrowser, email: string) => {
    const answer = await browser.request('POST', api('/sign-up/email'), {
      json: { name: 'Local', email, password: PASSWORD },
    })
    expect(answer.status).toBe(200)
    return (JSON.parse(answer.body) as { user: { id: string } }).user.id
  }
  const verifyLocally = async (userId: string, email: string) => {
    const { ctx } = tessera
    await ctx.handle(
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
  }
  const errorOf = (location: string) => new URL(location, base).searchParams.get('error')

  it('offers configured providers only, and builds an authorization URL with PKCE S256', async () => {
    const providers = await webBrowser().request('GET', api('/providers'))
    expect(JSON.parse(providers.body)).toEqual([{ id: 'acme', name: 'Acme' }])
    expect(tessera.ctx.config.warnings).toContain(
      'Social provider github is missing clientId or clientSecret',
    )

    const browser = webBrowser()
    const { url, redirect } = await start(browser, '/sign-in/social', { loginHint: 'ada@example.com' })
    expect(redirect).toBe(true)
    const params = new URL(url).searchParams
    expect(url.startsWith(`${provider.issuer}/`)).toBe(true)
    expect(params.get('response_type')).toBe('code')
    expect(params.get('client_id')).toBe(provider.clientId)
    expect(params.get('redirect_uri')).toBe(api('/callback/acme'))
    expect(params.get('scope')?.split(' ')).toEqual(['openid', 'email', 'profile', 'offline_access'])
    expect(params.get('state')).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(params.get('code_challenge_method')).toBe('S256')
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(params.get('nonce')).toBeTruthy()
    expect(params.get('login_hint')).toBe('ada@example.com')
    // The state is bound to this browser by a cookie.
    expect(browser.jarOf(base).get('better-auth.state')).toBeDefined()

    const unknown = await browser.request('POST', api('/sign-in/social'), { json: { provider: 'nope' } })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toMatchObject({
      code: 'PROVIDER_NOT_FOUND',
      message: 'Provider not found',
    })
    const untrusted = await browser.request('POST', api('/sign-in/social'), {
      json: { provider: 'acme', callbackURL: 'https://evil.example/steal' },
    })
    expect(untrusted.status).toBe(403)
  })

  it('signs a new user up (newUserCallbackURL), then signs the same person in again (callbackURL)', async () => {
    person('ada')
    const first = webBrowser()
    const { location } = await socialSignIn(first, 'ada', { newUserCallbackURL: '/welcome' })
    expect(location).toBe('/welcome')
    const signedUp = await session(first)
    expect(signedUp?.user).toMatchObject({ email: 'ada@example.com', emailVerified: true })
    const linked = await accounts(first)
    expect(linked).toHaveLength(1)
    expect(linked[0]).toMatchObject({ providerId: 'acme', accountId: 'ada' })
    expect(linked[0]?.scopes).toEqual(expect.arrayContaining(['openid', 'email']))

    const second = webBrowser()
    const again = await socialSignIn(second, 'ada', { newUserCallbackURL: '/welcome' })
    expect(again.location).toBe('/dashboard')
    expect((await session(second))?.user.id).toBe(signedUp?.user.id)
    expect(await accounts(second)).toHaveLength(1)
  })

  it('links to the user with the same verified email when the provider verified it too', async () => {
    const local = webBrowser()
    const userId = await signUpWithPassword(local, 'bob@example.com')
    await verifyLocally(userId, 'bob@example.com')
    person('bob')
    const browser = webBrowser()
    const { location } = await socialSignIn(browser, 'bob')
    expect(location).toBe('/dashboard')
    expect((await session(browser))?.user.id).toBe(userId)
    const providers = (await accounts(browser)).map((account) => account.providerId).sort()
    expect(providers).toEqual(['acme', 'credential'])
  })

  it('refuses to link when the provider did not verify the email, or the local email is unverified', async () => {
    const carolId = await signUpWithPassword(webBrowser(), 'carol@example.com')
    await verifyLocally(carolId, 'carol@example.com')
    person('carol', false)
    const unverifiedAtProvider = await socialSignIn(webBrowser(), 'carol', { errorCallbackURL: '/oops' })
    expect(unverifiedAtProvider.location).toBe('/oops?error=account_not_linked')

    await signUpWithPassword(webBrowser(), 'dan@example.com')
    person('dan', true)
    const unverifiedHere = await socialSignIn(webBrowser(), 'dan')
    expect(unverifiedHere.location).toBe(`${base}/api/auth/error?error=account_not_linked`)
  })

  it('refuses a replayed state, a state from another browser, and an unknown one', async () => {
    person('erin')
    const browser = webBrowser()
    const { back } = await socialSignIn(browser, 'erin', { errorCallbackURL: '/oops' })
    // better-auth's codes: an unknown or spent state is a mismatch (no state at all is not found).
    const replay = await browser.request('GET', back)
    expect(replay.location).toBe(`${base}/api/auth/error?error=state_mismatch`)

    // Someone starts a flow in their browser and gets the victim's browser to finish it.
    const attacker = webBrowser()
    const { url } = await start(attacker, '/sign-in/social', { errorCallbackURL: '/oops' })
    const planted = await signInAtProvider(attacker, url, 'erin')
    const victim = webBrowser()
    const answer = await victim.request('GET', planted)
    expect(answer.location).toBe('/oops?error=state_mismatch')
    expect(await session(victim)).toBeNull()
    // The refusal did not spend the flow: the browser that started it still finishes it.
    const rightful = await attacker.request('GET', planted)
    expect(rightful.location).toBe('/dashboard')
    expect((await session(attacker))?.user.email).toBe('erin@example.com')

    const unknown = await victim.request(
      'GET',
      api('/callback/acme?state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&code=x'),
    )
    expect(unknown.location).toBe(`${base}/api/auth/error?error=state_mismatch`)
    const none = await victim.request('GET', api('/callback/acme?code=x'))
    expect(none.location).toBe(`${base}/api/auth/error?error=state_not_found`)
  })

  it('sends a missing code, a provider error and a failed code exchange to the error URL', async () => {
    const browser = webBrowser()
    const stateOf = async () =>
      new URL((await start(browser, '/sign-in/social', { errorCallbackURL: '/oops' })).url).searchParams.get(
        'state',
      )
    const noCode = await browser.request('GET', api(`/callback/acme?state=${await stateOf()}`))
    expect(noCode.location).toBe('/oops?error=no_code')
    const denied = await browser.request(
      'GET',
      api(`/callback/acme?state=${await stateOf()}&error=access_denied&error_description=no+thanks`),
    )
    expect(errorOf(denied.location ?? '')).toBe('access_denied')
    expect(new URL(denied.location ?? '', base).searchParams.get('error_description')).toBe('no thanks')
    const badCode = await browser.request(
      'GET',
      api(
        `/callback/acme?state=${await stateOf()}&code=not-a-real-code&iss=${encodeURIComponent(provider.issuer)}`,
      ),
    )
    expect(badCode.location).toBe('/oops?error=invalid_code')
  })

  /** An id token the provider issued to Tessera's client, obtained as a mobile app would. */
  const idTokenFor = async (login: string, nonce: string) => {
    const config = await client.discovery(
      new URL(provider.issuer),
      provider.clientId,
      provider.clientSecret,
      undefined,
      {
        execute: [client.allowInsecureRequests],
      },
    )
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: testClientRedirect,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    const back = await signInAtProvider(webBrowser(), url.toString(), login)
    const tokens = await client.authorizationCodeGrant(config, new URL(back), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    })
    return tokens
  }

  it('signs in directly with a verified id token, and refuses a wrong nonce', async () => {
    person('fay')
    const tokens = await idTokenFor('fay', 'nonce-for-fay')
    const browser = webBrowser()
    const wrong = await browser.request('POST', api('/sign-in/social'), {
      json: { provider: 'acme', idToken: { token: tokens.id_token, nonce: 'another-nonce' } },
    })
    expect(wrong.status).toBe(401)
    expect(JSON.parse(wrong.body)).toMatchObject({ code: 'INVALID_TOKEN' })
    const signedIn = await browser.request('POST', api('/sign-in/social'), {
      json: {
        provider: 'acme',
        idToken: { token: tokens.id_token, nonce: 'nonce-for-fay', accessToken: tokens.access_token },
      },
    })
    expect(signedIn.status, signedIn.body).toBe(200)
    expect(JSON.parse(signedIn.body)).toMatchObject({ redirect: false, user: { email: 'fay@example.com' } })
    expect((await session(browser))?.user.email).toBe('fay@example.com')

    // With a callbackURL the answer still carries the session token and the user, and the URL too.
    const again = await idTokenFor('fay', 'nonce-again')
    const withCallback = await webBrowser().request('POST', api('/sign-in/social'), {
      json: {
        provider: 'acme',
        callbackURL: '/welcome',
        idToken: { token: again.id_token, nonce: 'nonce-again', accessToken: again.access_token },
      },
    })
    expect(withCallback.status, withCallback.body).toBe(200)
    expect(JSON.parse(withCallback.body)).toEqual({
      redirect: false,
      token: expect.any(String),
      url: '/welcome',
      user: expect.objectContaining({ email: 'fay@example.com' }),
    })
  })

  it('links another account to a signed-in user and unlinks it, never the last way to sign in', async () => {
    const browser = webBrowser()
    await signUpWithPassword(browser, 'gus@example.com')
    person('gus-at-acme', true, 'gus@example.com')
    const { url } = await start(browser, '/link-social', { callbackURL: '/settings' })
    const back = await signInAtProvider(browser, url, 'gus-at-acme')
    const landed = await browser.request('GET', back)
    expect(landed.location).toBe('/settings')
    const linked = await accounts(browser)
    const acme = linked.find((account) => account.providerId === 'acme')
    expect(acme?.accountId).toBe('gus-at-acme')

    const unlinked = await browser.request('POST', api('/unlink-account'), { json: { accountId: acme?.id } })
    expect(unlinked.status, unlinked.body).toBe(200)
    expect((await accounts(browser)).map((account) => account.providerId)).toEqual(['credential'])
    const again = await browser.request('POST', api('/unlink-account'), { json: { accountId: acme?.id } })
    expect(JSON.parse(again.body)).toMatchObject({ code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' })

    // A user who signed up through the provider has nothing else to sign in with.
    person('hal')
    const social = webBrowser()
    await socialSignIn(social, 'hal')
    const [only] = await accounts(social)
    const last = await social.request('POST', api('/unlink-account'), { json: { accountId: only?.id } })
    expect(last.status).toBe(400)
    expect(JSON.parse(last.body)).toMatchObject({
      code: 'FAILED_TO_UNLINK_LAST_ACCOUNT',
      message: "You can't unlink your last account",
    })
  })

  it('refuses to link a provider account that belongs to another user, or one with another email', async () => {
    person('ivy')
    await socialSignIn(webBrowser(), 'ivy')
    const other = webBrowser()
    await signUpWithPassword(other, 'ivy@elsewhere.example')
    const { url } = await start(other, '/link-social', {
      callbackURL: '/settings',
      errorCallbackURL: '/oops',
    })
    const landed = await other.request('GET', await signInAtProvider(other, url, 'ivy'))
    expect(landed.location).toBe('/oops?error=email_does_not_match')
  })

  it('hands out the provider tokens, refreshing them at the provider when they expire, and account-info', async () => {
    person('jo')
    provider.setAccessTokenTtl(3)
    const browser = webBrowser()
    try {
      await socialSignIn(browser, 'jo')
    } finally {
      provider.setAccessTokenTtl(3600)
    }
    const [account] = await accounts(browser)
    const refreshesBefore = provider.grants.get('refresh_token') ?? 0
    const answer = await browser.request('POST', api('/get-access-token'), {
      json: { accountId: account?.id },
    })
    expect(answer.status, answer.body).toBe(200)
    const token = JSON.parse(answer.body) as { accessToken: string; accessTokenExpiresAt: string }
    // The stored token expired within 5 s: refreshed at the provider, now valid for an hour.
    expect(provider.grants.get('refresh_token')).toBe(refreshesBefore + 1)
    expect(Date.parse(token.accessTokenExpiresAt) - Date.now()).toBeGreaterThan(3000_000)
    const again = JSON.parse(
      (await browser.request('POST', api('/get-access-token'), { json: { accountId: account?.id } })).body,
    )
    expect(again.accessToken).toBe(token.accessToken)
    expect(provider.grants.get('refresh_token')).toBe(refreshesBefore + 1)

    const refreshed = await browser.request('POST', api('/refresh-token'), {
      json: { accountId: account?.id },
    })
    expect(refreshed.status, refreshed.body).toBe(200)
    const fresh = JSON.parse(refreshed.body) as {
      accessToken: string
      refreshToken: string
      providerId: string
    }
    expect(fresh.accessToken).not.toBe(token.accessToken)
    // The provider never said when its refresh token expires: null, as better-auth answers.
    expect(fresh).toMatchObject({ providerId: 'acme', accountId: account?.id, refreshTokenExpiresAt: null })

    const info = await browser.request('GET', api(`/account-info?accountId=${account?.id}`))
    expect(info.status, info.body).toBe(200)
    expect(JSON.parse(info.body)).toMatchObject({
      user: { id: 'jo', email: 'jo@example.com', emailVerified: true },
      account: { id: account?.id, providerId: 'acme', accountId: 'jo' },
    })
    const missing = await browser.request('POST', api('/get-access-token'), { json: { accountId: 'nope' } })
    expect(JSON.parse(missing.body)).toMatchObject({ code: 'ACCOUNT_NOT_FOUND' })
    const signedOut = await webBrowser().request('POST', api('/get-access-token'), {
      json: { accountId: account?.id },
    })
    expect(signedOut.status).toBe(401)
  })

  it("erases a deleted user's provider tokens and profile, and frees the provider account", async () => {
    person('kim')
    const browser = webBrowser()
    await socialSignIn(browser, 'kim')
    const userId = (await session(browser))?.user.id ?? ''
    const [account] = await accounts(browser)
    const { accessToken } = JSON.parse(
      (await browser.request('POST', api('/get-access-token'), { json: { accountId: account?.id } })).body,
    ) as { accessToken: string }
    const raw = async () =>
      (
        await sql<{ data: string }>`select data::text as data from tessera_events
          where stream_id = ${`linked-accounts-${userId}`}`.execute(tessera.ctx.db)
      ).rows.map((row) => row.data)
    // Sealed from the start: the log never holds a token or the provider's subject in clear.
    expect((await raw()).join()).not.toContain(accessToken)
    expect((await raw()).join()).not.toContain('kim@example.com')

    const deleted = await browser.request('POST', api('/delete-user'), { json: {} })
    expect(deleted.status, deleted.body).toBe(200)
    const [linked] = await tessera.ctx.store.readStream(`linked-accounts-${userId}`)
    expect(linked?.data).toMatchObject({
      accessToken: null,
      refreshToken: null,
      idToken: null,
      providerAccountId: null,
    })
    const rows = await sql`select id from accounts where user_id = ${userId}`.execute(tessera.ctx.db)
    expect(rows.rows).toEqual([])

    // The provider account is free again: the same person signs up anew.
    const again = webBrowser()
    const { location } = await socialSignIn(again, 'kim', { newUserCallbackURL: '/welcome' })
    expect(location).toBe('/welcome')
    expect((await session(again))?.user.id).not.toBe(userId)
  })

  it("serves a user's provider tokens to a backend with a server key (userId), and the spec's account selection", async () => {
    person('lou')
    const browser = webBrowser()
    await socialSignIn(browser, 'lou')
    const userId = (await session(browser))?.user.id ?? ''
    const [account] = await accounts(browser)
    const backend = (path: string, body: unknown) =>
      fetch(api(path), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tessera-server-key': SERVER_KEY },
        body: JSON.stringify(body),
      })
    const byServer = await backend('/get-access-token', { accountId: account?.id, userId })
    expect(byServer.status).toBe(200)
    expect(await byServer.json()).toMatchObject({
      accessToken: expect.any(String),
      scopes: expect.any(Array),
    })
    const noUser = await backend('/get-access-token', { accountId: account?.id })
    expect((await noUser.json()) as object).toMatchObject({ code: 'USER_ID_OR_SESSION_REQUIRED' })
    const wrongKey = await fetch(api('/refresh-token'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-tessera-server-key': 'not-the-key-0123456789-0123456789',
      },
      body: JSON.stringify({ accountId: account?.id, userId }),
    })
    expect(wrongKey.status).toBe(401)
    // Without a server key, a userId alone names nobody.
    const anonymous = await fetch(api('/get-access-token'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: account?.id, userId }),
    })
    expect(anonymous.status).toBe(401)

    // The spec's form: the provider and the provider's own account id.
    const specForm = await browser.request('POST', api('/get-access-token'), {
      json: { providerId: 'acme', accountId: 'lou' },
    })
    expect(specForm.status, specForm.body).toBe(200)
    const info = await browser.request('POST', api('/account-info'), { json: { accountId: account?.id } })
    expect(JSON.parse(info.body)).toMatchObject({ user: { email: 'lou@example.com' } })
  })

  it('continues a form_post callback as a GET, so the browser brings its state cookie', async () => {
    const browser = webBrowser()
    const { url } = await start(browser, '/sign-in/social', { errorCallbackURL: '/oops' })
    const state = new URL(url).searchParams.get('state') ?? ''
    const posted = await browser.request('POST', api('/callback/acme'), {
      form: { state, error: 'access_denied' },
    })
    expect(posted.status).toBe(302)
    expect(posted.location).toBe(`/api/auth/callback/acme?state=${state}&error=access_denied`)
    const landed = await browser.request('GET', posted.next ?? '')
    expect(landed.location).toBe('/oops?error=access_denied')
  })

  it('refuses an expired state and removes its record when it is looked up', async () => {
    const browser = webBrowser()
    const { url } = await start(browser, '/sign-in/social', { errorCallbackURL: '/oops' })
    const state = new URL(url).searchParams.get('state') ?? ''
    const stateHash = createHash('sha256').update(state).digest('hex')
    const count = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from tessera_oauth_states
          where state_hash = ${stateHash}`.execute(tessera.ctx.db)
      ).rows[0]?.n
    expect(await count()).toBe(1)
    // Ten minutes have gone by.
    await sql`update tessera_oauth_states set expires_at = now() - interval '1 second'
      where state_hash = ${stateHash}`.execute(tessera.ctx.db)
    const answer = await browser.request('GET', api(`/callback/acme?state=${state}&code=x`))
    // As better-auth: a mismatch, sent to the flow's own error URL.
    expect(answer.location).toBe('/oops?error=state_mismatch')
    expect(await count()).toBe(0)
  })
})
