/// Account linking as the configuration says (better-auth's `account.accountLinking` options and
/// the providers' sign-up switches), unlinking the password (the "credential" account), and a
/// social sign-up that stopped after its first append, each over HTTP against a real OpenID
/// provider (oidc-provider on loopback) walked through its own login and consent pages.

import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PROVIDER_ACCOUNT_CLAIM_SCOPE,
  providerAccountKey,
} from '../../domain/linked-accounts/linked-accounts.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import { userClaims, userDecider, userStream } from '../../domain/user/user.js'
import { newId } from '../../infra/crypto/tokens.js'
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
const ORIGIN = { requestId: 'test', ip: null, userAgent: null }

type Account = { id: string; providerId: string; accountId: string }
type SessionUser = { id: string; email: string; name: string; emailVerified: boolean }

/** One Tessera on its own port, with helpers that walk the flows through the provider. */
const tesseraBeside = (
  provider: () => TestProvider,
  features: (issuer: string) => object,
  env: Record<string, string> = {},
) => {
  const t = {} as {
    start(port: number): Promise<void>
    tessera: TestTessera
    base: string
    api(path: string): string
    /** Starts a flow (sign-in or link), signs in at the provider, comes back; where Tessera sends the browser. */
    walk(browser: WebBrowser, path: string, login: string, body?: Record<string, unknown>): Promise<string>
    session(browser: WebBrowser): Promise<SessionUser | null>
    accounts(browser: WebBrowser): Promise<Account[]>
    signUp(browser: WebBrowser, email: string): Promise<string>
    verify(userId: string, email: string): Promise<void>
    close(): Promise<void>
  }
  t.start = async (port: number) => {
    t.base = `http://127.0.0.1:${port}`
    t.tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: t.base, ...env },
      features: features(provider().issuer),
    })
  }
  t.api = (path) => `${t.base}/api/auth${path}`
  t.walk = async (browser, path, login, body = {}) => {
    const started = await browser.request('POST', t.api(path), {
      json: { provider: 'acme', callbackURL: '/dashboard', ...body },
    })
    expect(started.status, started.body).toBe(200)
    const back = await signInAtProvider(browser, (JSON.parse(started.body) as { url: string }).url, login)
    const landed = await browser.request('GET', back)
    expect(landed.status).toBe(302)
    return landed.location ?? ''
  }
  t.session = async (browser) =>
    (JSON.parse((await browser.request('GET', t.api('/get-session'))).body) as { user: SessionUser } | null)
      ?.user ?? null
  t.accounts = async (browser) => {
    const answer = await browser.request('GET', t.api('/list-accounts'))
    expect(answer.status, answer.body).toBe(200)
    return JSON.parse(answer.body) as Account[]
  }
  t.signUp = async (browser, email) => {
    const answer = await browser.request('POST', t.api('/sign-up/email'), {
      json: { name: 'Local', email, password: PASSWORD },
    })
    expect(answer.status, answer.body).toBe(200)
    return (JSON.parse(answer.body) as { user: { id: string } }).user.id
  }
  t.verify = async (userId, email) => {
    await t.tessera.ctx.handle(
      userDecider,
      userStream(userId),
      { type: 'verify-email', email },
      { metadata: metadataFor(ORIGIN, { type: 'system' }, new Date()) },
    )
  }
  t.close = async () => {
    await t.tessera?.cleanup()
  }
  return t
}

describe('account linking, unlinking and sign-up as configured (real OpenID provider)', () => {
  let provider: TestProvider
  let testClientRedirect: string
  const acme = (issuer: string, options: object = {}) => ({
    issuer,
    clientId: 'tessera',
    clientSecret: 'provider-client-secret-0123456789abcdef',
    ...options,
  })
  // better-auth's defaults, the password unlinkable; two addresses listed as first admins.
  const defaults = tesseraBeside(
    () => provider,
    (issuer) => ({ socialProviders: { acme: acme(issuer) } }),
    { ADMIN_EMAILS: 'boss@example.com,chief@example.com' },
  )
  // Every linking option turned away from its default.
  const permissive = tesseraBeside(
    () => provider,
    (issuer) => ({
      account: {
        accountLinking: {
          trustedProviders: ['acme'],
          allowDifferentEmails: true,
          allowUnlinkingAll: true,
          updateUserInfoOnLink: true,
          requireLocalEmailVerified: false,
        },
      },
      socialProviders: {
        acme: acme(issuer, { overrideUserInfoOnSignIn: true, disableImplicitSignUp: true }),
      },
    }),
  )
  const closed = tesseraBeside(
    () => provider,
    (issuer) => ({
      account: { accountLinking: { enabled: false } },
      socialProviders: { acme: acme(issuer, { disableSignUp: true }) },
    }),
  )
  // Linking only when the signed-in user asks (link-social).
  const explicitOnly = tesseraBeside(
    () => provider,
    (issuer) => ({
      account: { accountLinking: { disableImplicitLinking: true } },
      socialProviders: { acme: acme(issuer) },
    }),
  )
  const person = (
    login: string,
    emailVerified = true,
    email = `${login}@example.com`,
    name = login.toUpperCase(),
  ) => provider.people.set(login, { email, emailVerified, name })
  const errorOf = (location: string) => new URL(location, 'http://x').searchParams.get('error')

  beforeAll(async () => {
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()]
    testClientRedirect = `http://127.0.0.1:${ports[1]}/test-client/callback`
    provider = await startProvider([
      ...ports.map((port) => `http://127.0.0.1:${port}/api/auth/callback/acme`),
      testClientRedirect,
    ])
    await defaults.start(ports[0] as number)
    await permissive.start(ports[1] as number)
    await closed.start(ports[2] as number)
    await explicitOnly.start(ports[3] as number)
  })
  afterAll(async () => {
    await defaults.close()
    await permissive.close()
    await closed.close()
    await explicitOnly.close()
    await provider?.close()
  })

  describe('unlinking the password (the credential account)', () => {
    it('unlinks it as better-auth does; the password no longer signs in, and the last account stays', async () => {
      const t = defaults
      const browser = webBrowser()
      const userId = await t.signUp(browser, 'pia@example.com')
      person('pia')
      expect(await t.walk(browser, '/link-social', 'pia', { callbackURL: '/settings' })).toBe('/settings')
      const before = await t.accounts(browser)
      const credential = before.find((account) => account.providerId === 'credential')
      const social = before.find((account) => account.providerId === 'acme')
      expect(credential?.accountId).toBe(userId)

      const unlinked = await browser.request('POST', t.api('/unlink-account'), {
        json: { accountId: credential?.id },
      })
      expect(unlinked.status, unlinked.body).toBe(200)
      expect(JSON.parse(unlinked.body)).toEqual({ status: true })
      expect((await t.accounts(browser)).map((account) => account.providerId)).toEqual(['acme'])
      const withPassword = await webBrowser().request('POST', t.api('/sign-in/email'), {
        json: { email: 'pia@example.com', password: PASSWORD },
      })
      expect(withPassword.status).toBe(401)
      expect(JSON.parse(withPassword.body)).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' })
      // The provider still signs the same user in.
      const elsewhere = webBrowser()
      expect(await t.walk(elsewhere, '/sign-in/social', 'pia')).toBe('/dashboard')
      expect((await t.session(elsewhere))?.id).toBe(userId)

      const last = await browser.request('POST', t.api('/unlink-account'), {
        json: { accountId: social?.id },
      })
      expect(last.status).toBe(400)
      expect(JSON.parse(last.body)).toEqual({
        code: 'FAILED_TO_UNLINK_LAST_ACCOUNT',
        message: "You can't unlink your last account",
      })
    })

    it("refuses a password user's only account, also in the spec's {providerId, accountId} form", async () => {
      const t = defaults
      const browser = webBrowser()
      const userId = await t.signUp(browser, 'quinn@example.com')
      const [only] = await t.accounts(browser)
      for (const json of [{ accountId: only?.id }, { providerId: 'credential', accountId: userId }]) {
        const answer = await browser.request('POST', t.api('/unlink-account'), { json })
        expect(answer.status).toBe(400)
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' })
      }
      expect(await t.accounts(browser)).toHaveLength(1)
    })

    it('allowUnlinkingAll: the last account goes too', async () => {
      const t = permissive
      person('rae')
      const browser = webBrowser()
      await t.walk(browser, '/sign-in/social', 'rae', { requestSignUp: true })
      const [only] = await t.accounts(browser)
      const answer = await browser.request('POST', t.api('/unlink-account'), {
        json: { accountId: only?.id },
      })
      expect(answer.status, answer.body).toBe(200)
      expect(await t.accounts(browser)).toEqual([])
    })
  })

  describe('accountLinking options', () => {
    it('trustedProviders: links by email whatever the provider says about verification', async () => {
      const browser = webBrowser()
      const userId = await permissive.signUp(browser, 'sam@example.com')
      await permissive.verify(userId, 'sam@example.com')
      person('sam', false)
      expect(await permissive.walk(browser, '/sign-in/social', 'sam')).toBe('/dashboard')
      expect((await permissive.session(browser))?.id).toBe(userId)
      // Not trusted (better-auth's default), the same answer is refused.
      const other = webBrowser()
      const localId = await defaults.signUp(other, 'sam@example.com')
      await defaults.verify(localId, 'sam@example.com')
      expect(errorOf(await defaults.walk(other, '/sign-in/social', 'sam'))).toBe('account_not_linked')
    })

    it('allowDifferentEmails and updateUserInfoOnLink: links another address, copies name, keeps the email', async () => {
      const browser = webBrowser()
      await permissive.signUp(browser, 'tess@example.com')
      person('tess-at-work', true, 'tess@work.example', 'Tess Work')
      expect(
        await permissive.walk(browser, '/link-social', 'tess-at-work', { callbackURL: '/settings' }),
      ).toBe('/settings')
      expect((await permissive.accounts(browser)).map((account) => account.providerId).sort()).toEqual([
        'acme',
        'credential',
      ])
      expect(await permissive.session(browser)).toMatchObject({
        email: 'tess@example.com',
        name: 'Tess Work',
      })
      // The default refuses a different address, and leaves the name alone.
      const other = webBrowser()
      await defaults.signUp(other, 'tess@example.com')
      const refused = await defaults.walk(other, '/link-social', 'tess-at-work', {
        errorCallbackURL: '/oops',
      })
      expect(refused).toBe('/oops?error=email_does_not_match')
      expect(await defaults.session(other)).toMatchObject({ name: 'Local' })
    })

    it('requireLocalEmailVerified: false links to an unverified local address the provider verified', async () => {
      const userId = await permissive.signUp(webBrowser(), 'bo@example.com')
      person('bo')
      const browser = webBrowser()
      expect(await permissive.walk(browser, '/sign-in/social', 'bo')).toBe('/dashboard')
      // The provider verified the same address: it counts as verified here now.
      expect(await permissive.session(browser)).toMatchObject({ id: userId, emailVerified: true })
      // better-auth's default refuses the same.
      await defaults.signUp(webBrowser(), 'bo@example.com')
      expect(errorOf(await defaults.walk(webBrowser(), '/sign-in/social', 'bo'))).toBe('account_not_linked')
    })

    it('enabled: false links nothing, neither by email nor by link-social', async () => {
      const browser = webBrowser()
      const userId = await closed.signUp(browser, 'uma@example.com')
      await closed.verify(userId, 'uma@example.com')
      person('uma')
      expect(errorOf(await closed.walk(webBrowser(), '/sign-in/social', 'uma'))).toBe('account_not_linked')
      expect(await closed.walk(browser, '/link-social', 'uma', { errorCallbackURL: '/oops' })).toBe(
        '/oops?error=unable_to_link_account',
      )
      expect((await closed.accounts(browser)).map((account) => account.providerId)).toEqual(['credential'])
    })
  })

  describe('accountLinking: explicit linking only', () => {
    it('disableImplicitLinking: no link by email at sign-in, link-social still links', async () => {
      const browser = webBrowser()
      const userId = await explicitOnly.signUp(browser, 'ana@example.com')
      await explicitOnly.verify(userId, 'ana@example.com')
      person('ana')
      expect(errorOf(await explicitOnly.walk(webBrowser(), '/sign-in/social', 'ana'))).toBe(
        'account_not_linked',
      )
      expect(await explicitOnly.walk(browser, '/link-social', 'ana', { callbackURL: '/settings' })).toBe(
        '/settings',
      )
      const again = webBrowser()
      expect(await explicitOnly.walk(again, '/sign-in/social', 'ana')).toBe('/dashboard')
      expect((await explicitOnly.session(again))?.id).toBe(userId)
    })
  })

  describe("providers' sign-up switches", () => {
    it('disableSignUp: nobody new signs up through it', async () => {
      person('vic')
      const browser = webBrowser()
      const location = await closed.walk(browser, '/sign-in/social', 'vic', { requestSignUp: true })
      expect(errorOf(location)).toBe('signup_disabled')
      expect(await closed.session(browser)).toBeNull()
    })

    it('disableImplicitSignUp: only a sign-in that asks with requestSignUp creates the user', async () => {
      person('wes')
      const browser = webBrowser()
      expect(errorOf(await permissive.walk(browser, '/sign-in/social', 'wes'))).toBe('signup_disabled')
      const location = await permissive.walk(browser, '/sign-in/social', 'wes', {
        requestSignUp: true,
        newUserCallbackURL: '/welcome',
      })
      expect(location).toBe('/welcome')
      // Once the user exists, an ordinary sign-in goes through.
      expect(await permissive.walk(webBrowser(), '/sign-in/social', 'wes')).toBe('/dashboard')
    })

    it('disableImplicitSignUp with an id token: 401 OAUTH_LINK_ERROR unless requestSignUp', async () => {
      person('ida')
      // An id token the provider issued to Tessera's client, obtained as a mobile app would.
      const config = await client.discovery(
        new URL(provider.issuer),
        provider.clientId,
        provider.clientSecret,
        undefined,
        { execute: [client.allowInsecureRequests] },
      )
      const verifier = client.randomPKCECodeVerifier()
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: testClientRedirect,
        scope: 'openid email profile',
        state: 'state-of-the-app',
        nonce: 'nonce-of-the-app',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })
      const back = await signInAtProvider(webBrowser(), url.toString(), 'ida')
      const tokens = await client.authorizationCodeGrant(config, new URL(back), {
        pkceCodeVerifier: verifier,
        expectedState: 'state-of-the-app',
        expectedNonce: 'nonce-of-the-app',
      })
      const signIn = (requestSignUp: boolean) =>
        webBrowser().request('POST', permissive.api('/sign-in/social'), {
          json: {
            provider: 'acme',
            requestSignUp,
            idToken: { token: tokens.id_token, nonce: 'nonce-of-the-app', accessToken: tokens.access_token },
          },
        })
      const refused = await signIn(false)
      expect(refused.status).toBe(401)
      expect(JSON.parse(refused.body)).toEqual({ code: 'OAUTH_LINK_ERROR', message: 'signup disabled' })
      const signedUp = await signIn(true)
      expect(signedUp.status, signedUp.body).toBe(200)
      expect(JSON.parse(signedUp.body)).toMatchObject({ redirect: false, user: { email: 'ida@example.com' } })
    })

    it("overrideUserInfoOnSignIn: each sign-in copies the provider's name and address", async () => {
      person('xan', true, 'xan@example.com', 'Xan')
      const browser = webBrowser()
      await permissive.walk(browser, '/sign-in/social', 'xan', { requestSignUp: true })
      person('xan', true, 'xan@new.example', 'Xan Renamed')
      const again = webBrowser()
      expect(await permissive.walk(again, '/sign-in/social', 'xan')).toBe('/dashboard')
      expect(await permissive.session(again)).toMatchObject({
        name: 'Xan Renamed',
        email: 'xan@new.example',
        emailVerified: true,
      })
      // Without the switch, the user stays as they signed up.
      const before = webBrowser()
      person('yul', true, 'yul@example.com', 'Yul')
      await defaults.walk(before, '/sign-in/social', 'yul')
      person('yul', true, 'yul@example.com', 'Yul Renamed')
      const after = webBrowser()
      await defaults.walk(after, '/sign-in/social', 'yul')
      expect(await defaults.session(after)).toMatchObject({ name: 'Yul' })
    })
  })

  it('makes a first admin at social sign-up of a listed address the provider verified, not of an unverified one', async () => {
    const role = async (browser: WebBrowser) =>
      (
        JSON.parse((await browser.request('GET', defaults.api('/get-session'))).body) as {
          user: { role: string }
        }
      ).user.role
    person('chief', true, 'chief@example.com')
    const chief = webBrowser()
    await defaults.walk(chief, '/sign-in/social', 'chief')
    expect(await role(chief)).toBe('admin')
    person('boss', false, 'boss@example.com')
    const boss = webBrowser()
    await defaults.walk(boss, '/sign-in/social', 'boss')
    expect(await role(boss)).toBe('user')
  })

  it('records a sign-up the provider vouched for as one verified user.registered, the link in its own stream, in one transaction', async () => {
    person('uno')
    const browser = webBrowser()
    await defaults.walk(browser, '/sign-in/social', 'uno')
    const userId = (await defaults.session(browser))?.id ?? ''
    const userEvents = await defaults.tessera.ctx.store.readStream(userStream(userId))
    expect(userEvents.map((event) => event.type)).toEqual(['user.registered'])
    expect(userEvents[0]?.data).toMatchObject({
      email: 'uno@example.com',
      emailVerified: true,
      credential: null,
    })
    const linked = await defaults.tessera.ctx.store.readStream(`linked-accounts-${userId}`)
    expect(linked.map((event) => event.type)).toEqual(['account.linked'])
    // Appended together: no user without the link, on the SQL store.
    expect(linked[0]?.position.tx).toBe(userEvents[0]?.position.tx)
  })

  it('finishes a sign-up that stopped after its first append (the user and the provider account claimed, no link)', async () => {
    const t = defaults
    person('zed')
    // What the sign-up's first append holds, with no second append after it (the process died).
    const userId = newId()
    await t.tessera.ctx.handle(
      userDecider,
      userStream(userId),
      {
        type: 'register-user',
        userId,
        email: 'zed@example.com',
        name: 'ZED',
        image: null,
        credential: null,
        emailVerified: true,
        sendVerification: false,
        callbackURL: null,
      },
      {
        metadata: metadataFor(ORIGIN, { type: 'anonymous' }, new Date()),
        claims: (events) => [
          ...userClaims(events),
          {
            op: 'claim',
            scope: PROVIDER_ACCOUNT_CLAIM_SCOPE,
            value: providerAccountKey('acme', 'zed'),
            owner: userId,
          },
        ],
      },
    )
    const browser = webBrowser()
    expect(await t.walk(browser, '/sign-in/social', 'zed', { newUserCallbackURL: '/welcome' })).toBe(
      '/welcome',
    )
    expect((await t.session(browser))?.id).toBe(userId)
    expect(await t.accounts(browser)).toEqual([
      expect.objectContaining({ providerId: 'acme', accountId: 'zed' }),
    ])
    // Finished once: the next sign-in is an ordinary one.
    expect(await t.walk(webBrowser(), '/sign-in/social', 'zed', { newUserCallbackURL: '/welcome' })).toBe(
      '/dashboard',
    )
  })
})
