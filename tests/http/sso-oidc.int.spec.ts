/// Enterprise single sign-on against a real OpenID provider (oidc-provider on loopback, trusted
/// through TRUSTED_ORIGINS) and a real DNS server on loopback for domain verification: an owner
/// registers the provider, proves the domain with a TXT record, and people of that domain sign in
/// through it (by email domain, organization slug or provider id), are provisioned just in time
/// with a membership, and are updated on later sign-ins. Refusals: a member cannot register, an
/// unverified domain never routes, a wrong state is refused, require-SSO refuses a password.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findMember } from '../../projections/organizations/organizations.repository.js'
import { startDns, type TestDns } from '../support/dns-server.js'
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
const SERVER_KEY = 'server-key-for-the-sso-tests-0123456789'

describe('single sign-on through an organization OpenID provider (pglite)', () => {
  let provider: TestProvider
  let dns: TestDns
  let tessera: TestTessera
  let base: string
  let owner: WebBrowser
  let organizationId: string

  const api = (path: string) => `${base}/api/auth${path}`
  const post = (browser: WebBrowser, path: string, json: unknown) =>
    browser.request('POST', api(path), { json })
  const body = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, unknown>
  const signUp = async (name: string, email = `${name}@example.com`) => {
    const browser = webBrowser()
    const answer = await post(browser, '/sign-up/email', { name, email, password: PASSWORD })
    expect(answer.status, answer.body).toBe(200)
    return { browser, userId: (body(answer).user as { id: string }).id }
  }
  const register = (browser: WebBrowser, providerId: string, domain: string) =>
    post(browser, '/sso/register', {
      providerId,
      issuer: provider.issuer,
      domain,
      organizationId,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
  const session = async (browser: WebBrowser) =>
    JSON.parse((await browser.request('GET', api('/get-session'))).body) as {
      user: { id: string; email: string; name: string; emailVerified: boolean }
    } | null
  /** The whole journey through the IdP; where Tessera finally sends the browser. */
  const ssoSignIn = async (browser: WebBrowser, login: string, start: Record<string, unknown>) => {
    const started = await post(browser, '/sign-in/sso', { callbackURL: '/dashboard', ...start })
    expect(started.status, started.body).toBe(200)
    const { url, redirect } = body(started) as { url: string; redirect: boolean }
    expect(redirect).toBe(true)
    const back = await signInAtProvider(browser, url, login)
    return browser.request('GET', back)
  }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    dns = await startDns()
    provider = await startProvider([
      `${base}/api/auth/sso/callback/acme-sso`,
      `${base}/api/auth/sso/callback/post-sso`,
    ])
    tessera = await startTessera({
      listen: true,
      env: {
        PORT: String(port),
        BASE_URL: base,
        TRUSTED_ORIGINS: provider.issuer,
        SERVER_KEYS: `ops=${SERVER_KEY}`,
      },
      features: {
        sso: { trustEmailVerified: true, domainVerification: { enabled: true, dnsServers: [dns.server] } },
      },
    })
    const made = await signUp('owner')
    owner = made.browser
    const created = await post(owner, '/organization/create', { name: 'Acme', slug: 'acme' })
    expect(created.status, created.body).toBe(200)
    organizationId = (body(created) as { id: string }).id
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await provider?.close()
    await dns?.close()
  })

  it('lets only owners and admins register, and never echoes the client secret', async () => {
    const member = await signUp('member')
    const added = await fetch(api('/organization/add-member'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tessera-server-key': SERVER_KEY },
      body: JSON.stringify({ userId: member.userId, role: 'member', organizationId }),
    })
    expect(added.status).toBe(200)
    const refused = await register(member.browser, 'member-sso', 'member.test')
    expect([refused.status, body(refused).code]).toEqual([403, 'NOT_ALLOWED_TO_REGISTER_SSO_PROVIDER'])
    const stranger = await signUp('stranger')
    const notMember = await register(stranger.browser, 'stranger-sso', 'stranger.test')
    expect([notMember.status, body(notMember).code]).toEqual([400, 'NOT_A_MEMBER_OF_THE_ORGANIZATION'])

    const answer = await register(owner, 'acme-sso', 'acme.test')
    expect(answer.status, answer.body).toBe(200)
    const registered = body(answer)
    expect(registered).toMatchObject({
      providerId: 'acme-sso',
      domain: 'acme.test',
      organizationId,
      redirectURI: api('/sso/callback/acme-sso'),
      domainVerified: false,
    })
    expect(registered.domainVerificationToken).toMatch(/^[A-Za-z0-9]{24}$/)
    expect(answer.body).not.toContain(provider.clientSecret)
    const oidc = registered.oidcConfig as Record<string, unknown>
    expect(oidc.tokenEndpoint).toBe(`${provider.issuer}/token`)
    const again = await register(owner, 'acme-sso', 'acme.test')
    expect([again.status, body(again).code]).toEqual([422, 'SSO_PROVIDER_ALREADY_EXISTS'])
  })

  it('refuses an IdP on a loopback address whose origin is not trusted', async () => {
    const answer = await post(owner, '/sso/register', {
      providerId: 'internal-sso',
      issuer: 'http://127.0.0.1:9/',
      domain: 'internal.test',
      organizationId,
      oidcConfig: { clientId: 'x', clientSecret: 'y' },
    })
    expect([answer.status, body(answer).code]).toEqual([400, 'UNTRUSTED_IDP_ADDRESS'])
  })

  it('routes nobody through an unverified domain, then verifies it by its DNS TXT record', async () => {
    const early = await post(webBrowser(), '/sign-in/sso', {
      email: 'ada@acme.test',
      callbackURL: '/dashboard',
    })
    expect([early.status, body(early).code]).toEqual([401, 'PROVIDER_DOMAIN_NOT_VERIFIED'])
    const missing = await post(owner, '/sso/verify-domain', { providerId: 'acme-sso' })
    expect([missing.status, body(missing).code]).toEqual([502, 'DOMAIN_VERIFICATION_FAILED'])
    const requested = await post(owner, '/sso/request-domain-verification', { providerId: 'acme-sso' })
    expect(requested.status).toBe(201)
    const { domainVerificationToken } = body(requested) as { domainVerificationToken: string }
    const name = '_better-auth-token-acme-sso'
    dns.txt.set(`${name}.acme.test`, [`${name}=${domainVerificationToken}`])
    const verified = await post(owner, '/sso/verify-domain', { providerId: 'acme-sso' })
    expect(verified.status, verified.body).toBe(204)
    const listed = JSON.parse((await owner.request('GET', api('/sso/get-provider?providerId=acme-sso'))).body)
    expect(listed).toMatchObject({ domainVerified: true, type: 'oidc' })
    expect(listed.oidcConfig.clientIdLastFour).toBe(`****${provider.clientId.slice(-4)}`)
  })

  it('provisions a person just in time with a membership, and updates their name later', async () => {
    provider.people.set('ada', { email: 'ada@acme.test', emailVerified: true, name: 'Ada' })
    const browser = webBrowser()
    const landed = await ssoSignIn(browser, 'ada', { email: 'ada@acme.test' })
    expect([landed.status, landed.location]).toEqual([302, '/dashboard'])
    const first = await session(browser)
    expect(first?.user).toMatchObject({ email: 'ada@acme.test', name: 'Ada', emailVerified: true })
    const userId = first?.user.id ?? ''
    expect((await findMember(tessera.ctx.db, organizationId, userId))?.role).toBe('member')

    provider.people.set('ada', { email: 'ada@acme.test', emailVerified: true, name: 'Ada Lovelace' })
    const later = webBrowser()
    expect((await ssoSignIn(later, 'ada', { organizationSlug: 'acme' })).status).toBe(302)
    const second = await session(later)
    expect(second?.user).toMatchObject({ id: userId, name: 'Ada Lovelace' })

    const byId = await post(webBrowser(), '/sign-in/sso', { providerId: 'acme-sso', callbackURL: '/x' })
    expect(byId.status).toBe(200)
    const params = new URL((body(byId) as { url: string }).url).searchParams
    expect(params.get('code_challenge_method')).toBe('S256')
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(params.get('redirect_uri')).toBe(api('/sso/callback/acme-sso'))

    const activity = JSON.parse((await later.request('GET', api('/activity'))).body)
    expect(JSON.stringify(activity)).toContain('sso:acme-sso')
  })

  it('authenticates at the token endpoint by client_secret_post when the provider is so registered', async () => {
    const registered = await post(owner, '/sso/register', {
      providerId: 'post-sso',
      issuer: provider.issuer,
      domain: 'post.test',
      organizationId,
      oidcConfig: {
        clientId: provider.postClientId,
        clientSecret: provider.clientSecret,
        tokenEndpointAuthentication: 'client_secret_post',
      },
    })
    expect(registered.status, registered.body).toBe(200)
    const { domainVerificationToken } = body(registered) as { domainVerificationToken: string }
    const name = '_better-auth-token-post-sso'
    dns.txt.set(`${name}.post.test`, [`${name}=${domainVerificationToken}`])
    expect((await post(owner, '/sso/verify-domain', { providerId: 'post-sso' })).status).toBe(204)
    provider.people.set('pat', { email: 'pat@post.test', emailVerified: true, name: 'Pat' })
    const browser = webBrowser()
    const before = provider.tokenAuthentications.length
    const landed = await ssoSignIn(browser, 'pat', { email: 'pat@post.test' })
    expect([landed.status, landed.location]).toEqual([302, '/dashboard'])
    expect((await session(browser))?.user.email).toBe('pat@post.test')
    // The secret went in the token request's body, not in an Authorization header.
    expect(provider.tokenAuthentications.slice(before)).toEqual(['post'])
  })

  it('refuses a callback whose state is not the browser’s own', async () => {
    provider.people.set('eve', { email: 'eve@acme.test', emailVerified: true, name: 'Eve' })
    const victim = webBrowser()
    const started = await post(victim, '/sign-in/sso', { email: 'eve@acme.test', callbackURL: '/dashboard' })
    const back = await signInAtProvider(victim, (body(started) as { url: string }).url, 'eve')
    const elsewhere = await webBrowser().request('GET', back)
    expect(elsewhere.status).toBe(302)
    expect(new URL(elsewhere.location ?? '', base).searchParams.get('error')).toBe('invalid_state')
    const forged = new URL(back)
    forged.searchParams.set('state', 'A'.repeat(32))
    const wrong = await victim.request('GET', forged.toString())
    expect(new URL(wrong.location ?? '', base).searchParams.get('error')).toBe('invalid_state')
  })

  it('refuses a password sign-in for a domain whose organization requires SSO', async () => {
    await signUp('bob', 'bob@acme.test')
    const before = await post(webBrowser(), '/sign-in/email', { email: 'bob@acme.test', password: PASSWORD })
    expect(before.status).toBe(200)
    const required = await post(owner, '/sso/set-sso-requirement', { providerId: 'acme-sso', required: true })
    expect(required.status, required.body).toBe(200)
    const after = await post(webBrowser(), '/sign-in/email', { email: 'bob@acme.test', password: PASSWORD })
    expect([after.status, body(after).code]).toEqual([403, 'SSO_REQUIRED'])
    expect(body(after).message).toContain('/sign-in/sso')
    // Unknown addresses of the domain get the same answer: nothing about who has an account.
    const nobody = await post(webBrowser(), '/sign-in/email', {
      email: 'nobody@acme.test',
      password: PASSWORD,
    })
    expect([nobody.status, body(nobody).code]).toEqual([403, 'SSO_REQUIRED'])
    const other = await post(webBrowser(), '/sign-in/email', {
      email: 'owner@example.com',
      password: PASSWORD,
    })
    expect(other.status).toBe(200)
  })
})
