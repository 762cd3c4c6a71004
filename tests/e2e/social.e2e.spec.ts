/// Social sign-in in a real Chromium: the portal's "Continue with Acme" button, the provider's own
/// login and consent pages (oidc-provider on loopback), back to the portal signed in; then the
/// Security page lists the connected service and explains why it cannot be disconnected. A person
/// with a password connects the service and then removes the password, the service now their way in.

import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProvider, type TestProvider } from '../support/oidc-provider.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import {
  checkBothSchemes,
  ensurePortalBuilt,
  freePort,
  hasChromium,
  launchChromium,
  screenshot,
} from './support.js'

describe.skipIf(!hasChromium)('social sign-in in Chromium through a real OpenID provider', () => {
  let provider: TestProvider
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    provider = await startProvider([`${baseUrl}/api/auth/callback/acme`])
    provider.people.set('ada', { email: 'ada@example.com', emailVerified: true, name: 'Ada Lovelace' })
    provider.people.set('grace', { email: 'grace@example.com', emailVerified: true, name: 'Grace Hopper' })
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl },
      features: {
        socialProviders: {
          acme: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret },
        },
      },
    })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await tessera?.cleanup()
    await provider?.close()
  })

  it('signs up through the provider and shows the connected account', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(15_000)
    const page = await context.newPage()
    await page.goto('/sign-in')
    await page.getByRole('button', { name: 'Continue with Acme' }).waitFor()
    await screenshot(page, 'social-sign-in')
    await page.getByRole('button', { name: 'Continue with Acme' }).click()
    // The provider's own pages.
    await page.waitForURL((url) => url.origin === provider.issuer)
    await page.locator('input[name="login"]').fill('ada')
    await page.locator('input[name="password"]').fill('anything')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    // Back in the portal, signed in: a new account lands on its profile.
    await page.waitForURL(`${baseUrl}/account`)
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    await screenshot(page, 'social-signed-up')

    await page.goto('/account/security')
    const card = page.getByRole('region', { name: 'Connected accounts' })
    const disconnect = card.getByRole('button', { name: 'Disconnect Acme' })
    await disconnect.waitFor()
    expect(await disconnect.isDisabled()).toBe(true)
    expect(await card.textContent()).toContain('only way to sign in')
    await screenshot(page, 'social-connected-accounts')
    await context.close()
  })

  it('removes the password once a connected service is another way in', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(15_000)
    const page = await context.newPage()
    await page.goto('/sign-up')
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper')
    await page.getByLabel('Email').fill('grace@example.com')
    await page.getByLabel('Password', { exact: true }).fill('compiler-a0-1952')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/check-email')

    await page.goto('/account/security')
    const card = page.getByRole('region', { name: 'Connected accounts' })
    await card.getByText('Kept until you connect a service').waitFor()
    expect(await card.getByRole('button', { name: 'Remove password' }).count()).toBe(0)
    await card.getByRole('button', { name: 'Connect Acme' }).click()
    await page.waitForURL((url) => url.origin === provider.issuer)
    await page.locator('input[name="login"]').fill('grace')
    await page.locator('input[name="password"]').fill('anything')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL('**/account/security?linked=1')

    await card.getByRole('button', { name: 'Remove password' }).click()
    await card.getByText('Remove your password?').waitFor()
    expect(await checkBothSchemes(page, 'social-remove-password-confirm')).toEqual({ axe: {}, overflow: {} })
    await card.getByRole('button', { name: 'Remove password' }).click()
    await card.getByRole('status').filter({ hasText: 'Your password is removed.' }).waitFor()
    expect(await card.getByRole('button', { name: 'Disconnect Acme' }).isDisabled()).toBe(true)
    expect(await checkBothSchemes(page, 'social-password-removed')).toEqual({ axe: {}, overflow: {} })

    // The history says so, each entry's device and address as separate facts.
    await page.goto('/account/activity')
    const history = page.getByRole('list', { name: 'Account activity' })
    await history.getByText(/You removed your password/).waitFor()
    expect(await checkBothSchemes(page, 'social-activity')).toEqual({ axe: {}, overflow: {} })
    await context.close()
  })
})
