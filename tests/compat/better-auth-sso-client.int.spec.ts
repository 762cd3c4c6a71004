/// Compatibility: better-auth 1.7.5's client with `ssoClient()` from `@better-auth/sso/client` and
/// `organizationClient()` drives a Tessera on loopback against a real OpenID provider
/// (`oidc-provider`) and a real DNS server: an owner registers the organization's provider, lists
/// and reads it, proves the domain by its TXT record, and `signIn.sso` (by email, organization slug
/// or provider id) answers the IdP's authorization URL; walking the IdP's pages by hand ends with a
/// Tessera session that `getSession` reads. updateProvider and deleteProvider too, and the plugin's
/// refusals come back as its codes.

import { ssoClient } from '@better-auth/sso/client'
import { createAuthClient } from 'better-auth/client'
import { organizationClient } from 'better-auth/client/plugins'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
const PROVIDER_ID = 'globex-sso'

/** A browser whose Tessera cookies the client shares, so the IdP walk and the client meet. */
const device = (tessera: TestTessera) => {
  const browser = webBrowser()
  const jar = browser.jarOf(tessera.baseUrl)
  const client = createAuthClient({
    baseURL: tessera.baseUrl,
    plugins: [ssoClient({ domainVerification: { enabled: true } }), organizationClient()],
    fetchOptions: {
      onRequest(context: { headers: Headers }) {
        context.headers.set('origin', tessera.ctx.config.baseOrigin)
        const cookie = jar.header()
        if (cookie) context.headers.set('cookie', cookie)
      },
      onResponse(context: { response: Response }) {
        jar.store(context.response.headers.getSetCookie())
      },
    },
  })
  return { browser, client }
}

describe('better-auth 1.7.5 ssoClient against Tessera (pglite, loopback OpenID provider)', {
  timeout: 240_000,
}, () => {
  let provider: TestProvider
  let dns: TestDns
  let tessera: TestTessera

  beforeAll(async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    dns = await startDns()
    provider = await startProvider([`${base}/api/auth/sso/callback/${PROVIDER_ID}`])
    tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: base, TRUSTED_ORIGINS: provider.issuer },
      features: {
        sso: { trustEmailVerified: true, domainVerification: { enabled: true, dnsServers: [dns.server] } },
      },
    })
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await provider?.close()
    await dns?.close()
  })

  /** From `signIn.sso`'s answer through the IdP and back to Tessera; where Tessera sends the browser. */
  const throughIdp = async (browser: WebBrowser, url: string, login: string) => {
    expect(new URL(url).origin).toBe(provider.issuer)
    const back = await signInAtProvider(browser, url, login)
    return browser.request('GET', back)
  }

  it('registers, lists and verifies a provider, then signs a person in through it', async () => {
    const owner = device(tessera)
    const signedUp = await owner.client.signUp.email({
      name: 'Owner',
      email: 'owner@example.com',
      password: PASSWORD,
    })
    expect(signedUp.error).toBeNull()
    const created = await owner.client.organization.create({ name: 'Globex', slug: 'globex' })
    expect(created.error).toBeNull()
    const organizationId = created.data?.id as string

    const registered = await owner.client.sso.register({
      providerId: PROVIDER_ID,
      issuer: provider.issuer,
      domain: 'globex.test',
      organizationId,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
    expect(registered.error).toBeNull()
    expect(registered.data).toMatchObject({
      providerId: PROVIDER_ID,
      organizationId,
      domainVerified: false,
      redirectURI: `${tessera.baseUrl}/api/auth/sso/callback/${PROVIDER_ID}`,
    })
    const again = await owner.client.sso.register({
      providerId: PROVIDER_ID,
      issuer: provider.issuer,
      domain: 'globex.test',
      organizationId,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
    expect(again.error).toMatchObject({ status: 422, code: 'SSO_PROVIDER_ALREADY_EXISTS' })

    const listed = await owner.client.sso.providers()
    expect(listed.error).toBeNull()
    expect((listed.data as { providers: unknown[] }).providers).toEqual([
      expect.objectContaining({ providerId: PROVIDER_ID, domain: 'globex.test', domainVerified: false }),
    ])
    const read = await owner.client.sso.getProvider({ query: { providerId: PROVIDER_ID } })
    expect(read.data).toMatchObject({ providerId: PROVIDER_ID, type: 'oidc', organizationId })
    expect(JSON.stringify(read.data)).not.toContain(provider.clientSecret)

    // Nobody routes through the domain until its TXT record is found.
    const early = device(tessera)
    const refused = await early.client.signIn.sso({ email: 'ada@globex.test', callbackURL: '/account' })
    expect(refused.error).toMatchObject({ status: 401, code: 'PROVIDER_DOMAIN_NOT_VERIFIED' })
    const requested = await owner.client.sso.requestDomainVerification({ providerId: PROVIDER_ID })
    expect(requested.error).toBeNull()
    const token = (requested.data as { domainVerificationToken: string }).domainVerificationToken
    const name = `_better-auth-token-${PROVIDER_ID}`
    dns.txt.set(`${name}.globex.test`, [`${name}=${token}`])
    const verified = await owner.client.sso.verifyDomain({ providerId: PROVIDER_ID })
    expect(verified.error).toBeNull()

    provider.people.set('ada', { email: 'ada@globex.test', emailVerified: true, name: 'Ada' })
    const ada = device(tessera)
    const started = await ada.client.signIn.sso({ email: 'ada@globex.test', callbackURL: '/account' })
    expect(started.error).toBeNull()
    expect(started.data).toMatchObject({ redirect: true })
    const landed = await throughIdp(ada.browser, started.data?.url as string, 'ada')
    expect([landed.status, landed.location]).toEqual([302, '/account'])
    const session = await ada.client.getSession()
    expect(session.data?.user).toMatchObject({ email: 'ada@globex.test', name: 'Ada', emailVerified: true })

    for (const start of [{ organizationSlug: 'globex' }, { providerId: PROVIDER_ID }]) {
      const later = device(tessera)
      const again = await later.client.signIn.sso({ ...start, callbackURL: '/account' })
      expect(again.error).toBeNull()
      expect((await throughIdp(later.browser, again.data?.url as string, 'ada')).status).toBe(302)
      expect((await later.client.getSession()).data?.user.id).toBe(session.data?.user.id)
    }
  })

  it('answers the plugin codes when no provider is found or no identifier is given', async () => {
    const { client } = device(tessera)
    const unknown = await client.signIn.sso({ email: 'someone@initech.test', callbackURL: '/account' })
    expect(unknown.error).toMatchObject({ status: 404, code: 'NO_SSO_PROVIDER_FOUND' })
    const nothing = await client.signIn.sso({ callbackURL: '/account' })
    expect(nothing.error?.status).toBe(400)
  })

  it('updates and deletes a provider, and someone outside the organization may not read it', async () => {
    const owner = device(tessera)
    await owner.client.signUp.email({ name: 'Owner', email: 'owner2@example.com', password: PASSWORD })
    const created = await owner.client.organization.create({ name: 'Umbrella', slug: 'umbrella' })
    const organizationId = created.data?.id as string
    const registered = await owner.client.sso.register({
      providerId: 'umbrella-sso',
      issuer: provider.issuer,
      domain: 'umbrella.test',
      organizationId,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
    expect(registered.error).toBeNull()

    const updated = await owner.client.sso.updateProvider({
      providerId: 'umbrella-sso',
      domain: 'umbrella-corp.test',
    })
    expect(updated.error).toBeNull()
    expect(updated.data).toMatchObject({ providerId: 'umbrella-sso', domain: 'umbrella-corp.test' })
    const nothing = await owner.client.sso.updateProvider({ providerId: 'umbrella-sso' })
    expect(nothing.error).toMatchObject({ status: 400, code: 'NO_FIELDS_TO_UPDATE' })

    const stranger = device(tessera)
    await stranger.client.signUp.email({ name: 'Eve', email: 'eve@example.com', password: PASSWORD })
    const peek = await stranger.client.sso.getProvider({ query: { providerId: 'umbrella-sso' } })
    expect(peek.error).toMatchObject({ status: 403, code: 'NO_ACCESS_TO_SSO_PROVIDER' })

    const deleted = await owner.client.sso.deleteProvider({ providerId: 'umbrella-sso' })
    expect(deleted.data).toEqual({ success: true })
    const gone = await owner.client.sso.getProvider({ query: { providerId: 'umbrella-sso' } })
    expect(gone.error).toMatchObject({ status: 404, code: 'SSO_PROVIDER_NOT_FOUND' })
  })
})
