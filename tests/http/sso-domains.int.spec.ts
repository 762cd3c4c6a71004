/// A provider for several email domains, as `@better-auth/sso` takes them (a comma-separated
/// `domain`): every domain proved by its own DNS TXT record (a real DNS server on loopback), sign-in
/// routed by any of them and their subdomains (a real OpenID provider on loopback), a domain added
/// later to prove again while the others stay proved, and SSO required per verified domain.

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
const RECORD_NAME = '_better-auth-token-multi-sso'

describe('an SSO provider with several domains (pglite)', () => {
  let provider: TestProvider
  let dns: TestDns
  let tessera: TestTessera
  let base: string
  let owner: WebBrowser
  let organizationId: string
  let token = ''

  const api = (path: string) => `${base}/api/auth${path}`
  const post = (browser: WebBrowser, path: string, json: unknown) =>
    browser.request('POST', api(path), { json })
  const body = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, unknown>
  const status = (answer: { status: number; body: string }) => [answer.status, body(answer).code]
  const getProvider = async () =>
    body(await owner.request('GET', api('/sso/get-provider?providerId=multi-sso')))
  const startSso = (email: string) => post(webBrowser(), '/sign-in/sso', { email, callbackURL: '/dashboard' })
  const signUp = async (email: string) => {
    const browser = webBrowser()
    const answer = await post(browser, '/sign-up/email', {
      name: email.split('@')[0],
      email,
      password: PASSWORD,
    })
    expect(answer.status, answer.body).toBe(200)
    return browser
  }
  const passwordSignIn = (email: string) =>
    post(webBrowser(), '/sign-in/email', { email, password: PASSWORD })

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    dns = await startDns()
    provider = await startProvider([`${base}/api/auth/sso/callback/multi-sso`])
    tessera = await startTessera({
      listen: true,
      env: { PORT: String(port), BASE_URL: base, TRUSTED_ORIGINS: provider.issuer },
      features: {
        sso: { trustEmailVerified: true, domainVerification: { enabled: true, dnsServers: [dns.server] } },
      },
    })
    owner = await signUp('owner@example.com')
    const created = await post(owner, '/organization/create', { name: 'Multi', slug: 'multi' })
    expect(created.status, created.body).toBe(200)
    organizationId = (body(created) as { id: string }).id
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await provider?.close()
    await dns?.close()
  })

  it('registers one provider for a comma-separated list of domains', async () => {
    const answer = await post(owner, '/sso/register', {
      providerId: 'multi-sso',
      issuer: provider.issuer,
      domain: ' multi.test , Multi.Example',
      organizationId,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
    expect(answer.status, answer.body).toBe(200)
    expect(body(answer)).toMatchObject({ domain: 'multi.test,multi.example', domainVerified: false })
    token = String(body(answer).domainVerificationToken)
    const bad = await post(owner, '/sso/register', {
      providerId: 'bad-sso',
      issuer: provider.issuer,
      domain: 'multi.test,,not a domain',
      organizationId,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
    expect(bad.status).toBe(400)
  })

  it('verifies only when every domain carries the record, naming the one that does not', async () => {
    expect(status(await startSso('ada@multi.example'))).toEqual([401, 'PROVIDER_DOMAIN_NOT_VERIFIED'])
    dns.txt.set(`${RECORD_NAME}.multi.test`, [`${RECORD_NAME}=${token}`])
    const half = await post(owner, '/sso/verify-domain', { providerId: 'multi-sso' })
    expect(status(half)).toEqual([502, 'DOMAIN_VERIFICATION_FAILED'])
    expect(body(half).message).toBe('Unable to verify domain ownership for multi.example. Try again later')
    expect(await getProvider()).toMatchObject({ domainVerified: false, verifiedDomains: [] })

    dns.txt.set(`${RECORD_NAME}.multi.example`, [token])
    const done = await post(owner, '/sso/verify-domain', { providerId: 'multi-sso' })
    expect(done.status, done.body).toBe(204)
    expect(await getProvider()).toMatchObject({
      domainVerified: true,
      verifiedDomains: ['multi.test', 'multi.example'],
    })
  })

  it('routes a sign-in by any of its domains and their subdomains, and signs the person in', async () => {
    for (const email of ['ada@multi.test', 'ada@eu.multi.example']) {
      const started = await startSso(email)
      expect(started.status, started.body).toBe(200)
      expect(String(body(started).url)).toContain(provider.issuer)
    }
    expect(status(await startSso('ada@notmulti.example'))).toEqual([404, 'NO_SSO_PROVIDER_FOUND'])

    provider.people.set('grace', { email: 'grace@eu.multi.example', emailVerified: true, name: 'Grace' })
    const browser = webBrowser()
    const started = await post(browser, '/sign-in/sso', {
      email: 'grace@eu.multi.example',
      callbackURL: '/dashboard',
    })
    const back = await signInAtProvider(browser, String(body(started).url), 'grace')
    const landed = await browser.request('GET', back)
    expect(landed.status).toBe(302)
    const session = JSON.parse((await browser.request('GET', api('/get-session'))).body)
    expect(session.user).toMatchObject({ email: 'grace@eu.multi.example', emailVerified: true })
  })

  it('requires SSO for one verified domain: passwords there are refused, elsewhere not', async () => {
    await signUp('bob@multi.test')
    await signUp('bob@multi.example')
    const required = await post(owner, '/sso/set-sso-requirement', {
      providerId: 'multi-sso',
      required: true,
      domain: 'multi.test',
    })
    expect(required.status, required.body).toBe(200)
    expect(body(required)).toMatchObject({ ssoRequired: true, ssoRequiredDomains: ['multi.test'] })
    expect(status(await passwordSignIn('bob@multi.test'))).toEqual([403, 'SSO_REQUIRED'])
    expect((await passwordSignIn('bob@multi.example')).status).toBe(200)
    const stranger = await post(owner, '/sso/set-sso-requirement', {
      providerId: 'multi-sso',
      required: true,
      domain: 'elsewhere.test',
    })
    expect(status(stranger)).toEqual([404, 'SSO_DOMAIN_NOT_FOUND'])
  })

  it('asks only a newly added domain to be proved; the kept ones stay verified and required', async () => {
    const updated = await post(owner, '/sso/update-provider', {
      providerId: 'multi-sso',
      domain: 'multi.test,multi.org',
    })
    expect(updated.status, updated.body).toBe(200)
    expect(body(updated)).toMatchObject({
      domain: 'multi.test,multi.org',
      domainVerified: false,
      verifiedDomains: ['multi.test'],
      ssoRequiredDomains: ['multi.test'],
    })
    expect(status(await passwordSignIn('bob@multi.test'))).toEqual([403, 'SSO_REQUIRED'])
    expect(status(await startSso('ada@multi.org'))).toEqual([401, 'PROVIDER_DOMAIN_NOT_VERIFIED'])
    const notYet = await post(owner, '/sso/set-sso-requirement', {
      providerId: 'multi-sso',
      required: true,
      domain: 'multi.org',
    })
    expect(status(notYet)).toEqual([403, 'SSO_REQUIREMENT_NEEDS_VERIFIED_DOMAIN'])

    const requested = await post(owner, '/sso/request-domain-verification', { providerId: 'multi-sso' })
    const fresh = String(body(requested).domainVerificationToken)
    dns.txt.set(`${RECORD_NAME}.multi.org`, [`${RECORD_NAME}=${fresh}`])
    const done = await post(owner, '/sso/verify-domain', { providerId: 'multi-sso' })
    expect(done.status, done.body).toBe(204)
    expect((await startSso('ada@multi.org')).status).toBe(200)
  })
})
