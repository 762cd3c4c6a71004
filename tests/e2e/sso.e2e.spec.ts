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
  }

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
    await setUpAcme()
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
})
