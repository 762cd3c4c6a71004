/// "Sign in with SSO" in a real Chromium: an organization (Acme) has an OpenID provider
/// (oidc-provider on loopback) for its verified domain (a real DNS server on loopback) and requires
/// it. A person of that domain types their password, is told their organization signs them in
/// through SSO, continues with the address already filled in, signs in at the IdP's own pages and
/// lands on their account. An address of a domain without SSO is refused in words. Each state is
/// checked with axe and pictured at 1280 and 375 px, light and dark.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDns, type TestDns } from '../support/dns-server.js'
import { startProvider, type TestProvider, webBrowser } from '../support/oidc-provider.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { checkBothSchemes, ensurePortalBuilt, freePort, hasChromium, launchChromium } from './support.js'

const PASSWORD = 'correct horse battery'

describe.skipIf(!hasChromium)('sign in with SSO in Chromium through a real OpenID provider', () => {
  let provider: TestProvider
  let dns: TestDns
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  let acme: Awaited<ReturnType<typeof setUpAcme>>

  /** The owner sets Acme up over the API: provider, verified domain, SSO required. */
  const setUpAcme = async () => {
    const owner = webBrowser()
    const post = async (path: string, json: unknown) => {
      const answer = await owner.request('POST', `${baseUrl}/api/auth${path}`, { json })
      expect(answer.status, answer.body).toBeLessThan(300)
      return answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : {}
    }
    await post('/sign-up/email', { name: 'Owner', email: 'owner@example.com', password: PASSWORD })
    const organization = await post('/organization/create', { name: 'Acme', slug: 'acme' })
    await post('/sso/register', {
      providerId: 'acme-sso',
      issuer: provider.issuer,
      domain: 'acme.test',
      organizationId: organization.id,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
    const { domainVerificationToken } = await post('/sso/request-domain-verification', {
      providerId: 'acme-sso',
    })
    const name = '_better-auth-token-acme-sso'
    dns.txt.set(`${name}.acme.test`, [`${name}=${String(domainVerificationToken)}`])
    await post('/sso/verify-domain', { providerId: 'acme-sso' })
    await post('/sso/set-sso-requirement', { providerId: 'acme-sso', required: true })
    // A second provider whose domain is still to be proven, for the settings page.
    await post('/sso/register', {
      providerId: 'acme-eu',
      issuer: provider.issuer,
      domain: 'acme-eu.test',
      organizationId: organization.id,
      oidcConfig: { clientId: provider.clientId, clientSecret: provider.clientSecret },
    })
    return { owner, organizationId: String(organization.id) }
  }

  /** The owner's session, as the API set it, for Chromium's cookie jar. */
  const ownerCookies = () =>
    acme.owner
      .jarOf(baseUrl)
      .header()
      .split('; ')
      .map((pair) => {
        const at = pair.indexOf('=')
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl }
      })

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(15_000)
    return context.newPage()
  }

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    dns = await startDns()
    provider = await startProvider([`${baseUrl}/api/auth/sso/callback/acme-sso`])
    provider.people.set('bob', { email: 'bob@acme.test', emailVerified: true, name: 'Bob Builder' })
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, TRUSTED_ORIGINS: provider.issuer },
      features: {
        sso: { trustEmailVerified: true, domainVerification: { enabled: true, dnsServers: [dns.server] } },
      },
    })
    acme = await setUpAcme()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await tessera?.cleanup()
    await provider?.close()
    await dns?.close()
  })

  it('turns a refused password into SSO, prefilled, and signs in through the IdP', async () => {
    const page = await newPage()
    await page.goto('/sign-in')
    await page.getByLabel('Email or username').fill('bob@acme.test')
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByText('Your organization signs you in through SSO').waitFor()
    const field = page.getByLabel('Work email or organization')
    expect(await field.inputValue()).toBe('bob@acme.test')
    expect(await checkBothSchemes(page, 'sso-required')).toEqual({ axe: {}, overflow: {} })

    await page.getByRole('button', { name: 'Continue with SSO' }).click()
    await page.waitForURL((url) => url.origin === provider.issuer)
    await page.locator('input[name="login"]').fill('bob')
    await page.locator('input[name="password"]').fill('anything')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(`${baseUrl}/account`)
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    const session = await (await page.request.get('/api/auth/get-session')).json()
    expect(session.user).toMatchObject({ email: 'bob@acme.test', name: 'Bob Builder' })
    await page.context().close()
  })

  it('refuses a domain without single sign-on in words', async () => {
    const page = await newPage()
    await page.goto('/sign-in')
    await page.getByRole('button', { name: 'Sign in with SSO' }).click()
    await page.getByLabel('Work email or organization').fill('ada@initech.test')
    await page.getByRole('button', { name: 'Continue with SSO' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: 'Single sign-on is not set up for initech.test' })
      .waitFor()
    expect(await checkBothSchemes(page, 'sso-not-set-up')).toEqual({ axe: {}, overflow: {} })
    await page.context().close()
  })

  it("shows the organization's providers in its settings and verifies a pending domain", async () => {
    const page = await newPage()
    // The owner's session, as the API set it, in Chromium's cookie jar.
    const cookies = acme.owner
      .jarOf(baseUrl)
      .header()
      .split('; ')
      .map((pair) => {
        const at = pair.indexOf('=')
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl }
      })
    await page.context().addCookies(cookies)
    await page.goto(`/account/organizations/${acme.organizationId}/settings`)
    const providers = page.getByRole('list', { name: 'Identity providers' })
    await providers.getByText('acme-eu.test').waitFor()
    const pending = providers.locator('li.organization-sso-provider').filter({ hasText: 'acme-eu.test' })
    await pending.getByRole('button', { name: 'Show the DNS record to add' }).click()
    const name = '_better-auth-token-acme-eu'
    await pending.getByText(`${name}.acme-eu.test`).waitFor()
    const value = (await pending.getByText(`${name}=`).textContent()) ?? ''
    await page.getByRole('heading', { name: 'Single sign-on' }).scrollIntoViewIfNeeded()
    expect(await checkBothSchemes(page, 'sso-settings-pending')).toEqual({ axe: {}, overflow: {} })

    await pending.getByRole('button', { name: 'Check now' }).click()
    const refusal = pending.locator('.organization-sso-pending').getByRole('alert')
    await refusal.waitFor()
    expect(await refusal.textContent()).toMatch(/The record .*was not found yet/)
    dns.txt.set(`${name}.acme-eu.test`, [value])
    await pending.getByRole('button', { name: 'Check now' }).click()
    await pending.getByRole('list').getByText('Verified').waitFor()
    expect(await checkBothSchemes(page, 'sso-settings-verified')).toEqual({ axe: {}, overflow: {} })
    await page.context().close()
  })

  it('adds a provider from the settings for two domains, in words when refused, and shows its setup', async () => {
    const page = await newPage()
    await page.context().addCookies(ownerCookies())
    await page.goto(`/account/organizations/${acme.organizationId}/settings`)
    await page.getByRole('button', { name: 'Add an identity provider' }).click()
    const form = page.getByRole('form', { name: 'Add an identity provider' })
    await form.getByLabel('Provider name').fill('acme-okta')
    await form.getByLabel('Email domains').fill('acme.example, acme.org')
    await form.getByLabel('Issuer').fill('https://idp.invalid')
    await form.getByLabel('Client ID').fill(provider.clientId)
    await form.getByLabel('Client secret').fill(provider.clientSecret)
    await form.getByRole('button', { name: 'Add provider' }).click()
    await form.getByText('discovery document could not be read', { exact: false }).first().waitFor()
    expect(await checkBothSchemes(page, 'sso-add-refused')).toEqual({ axe: {}, overflow: {} })

    await form.getByLabel('Issuer').fill(provider.issuer)
    await form.getByRole('button', { name: 'Add provider' }).click()
    const added = page.locator('.notice').filter({ hasText: 'acme-okta is added.' })
    await added.waitFor()
    await added.getByText(`${baseUrl}/api/auth/sso/callback/acme-okta`).waitFor()
    await added.getByText('_better-auth-token-acme-okta.acme.example').waitFor()
    await added.getByText('_better-auth-token-acme-okta.acme.org').waitFor()
    const providers = page.getByRole('list', { name: 'Domains of acme-okta' })
    expect(await providers.getByText('Not verified').count()).toBe(2)
    expect(await checkBothSchemes(page, 'sso-added')).toEqual({ axe: {}, overflow: {} })
    const listed = await (await page.request.get('/api/auth/sso/get-provider?providerId=acme-okta')).json()
    expect(listed).toMatchObject({ domain: 'acme.example,acme.org', organizationId: acme.organizationId })
    await page.context().close()
  })
})
