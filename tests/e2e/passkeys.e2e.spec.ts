/// Passkeys in a real Chromium, with the DevTools protocol's virtual authenticator (WebAuthn domain:
/// a CTAP2 platform authenticator with resident keys and user verification) in place of a device:
/// a person adds a passkey on the Security page, names it, signs out, and signs in again with
/// "Sign in with a passkey", with no password and no second step. Pictured at 1280 and 375 px.

import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { announced } from './page-helpers.js'
import { checkBothSchemes, ensurePortalBuilt, freePort, hasChromium, launchChromium } from './support.js'

/** A platform authenticator that says yes to every ceremony, as a person touching it would. */
const addVirtualAuthenticator = async (cdp: CDPSession): Promise<string> => {
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return authenticatorId
}

describe.skipIf(!hasChromium)('passkeys in Chromium with a virtual authenticator', () => {
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  let context: BrowserContext
  let page: Page
  let cdp: CDPSession
  let authenticatorId: string

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    // WebAuthn scopes credentials to a domain: an IP address cannot be a relying party id.
    baseUrl = `http://localhost:${port}`
    tessera = await startTessera({ listen: true, portalDir, env: { PORT: String(port), BASE_URL: baseUrl } })
    browser = await launchChromium()
    context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(20_000)
    page = await context.newPage()
    cdp = await context.newCDPSession(page)
    authenticatorId = await addVirtualAuthenticator(cdp)
  }, 300_000)
  afterAll(async () => {
    await browser?.close()
    await tessera?.cleanup()
  })

  it('adds a passkey on the Security page and names it', async () => {
    await page.goto('/sign-up')
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel('Password', { exact: true }).fill('analytical-engine-1843')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/check-email')

    await page.goto('/account/security')
    const card = page.getByRole('region', { name: 'Passkeys' })
    await card.getByText('You have no passkey yet.').waitFor()
    await card.getByRole('button', { name: 'Add a passkey' }).click()
    await announced(card, 'status', 'Your passkey was added')
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]?.isResidentCredential).toBe(true)
    expect(credentials[0]?.rpId).toBe('localhost')

    await card.getByRole('button', { name: 'Rename Unnamed passkey' }).click()
    await card.getByRole('textbox', { name: 'Name' }).fill('This laptop')
    await card.getByRole('button', { name: 'Save' }).click()
    await announced(card, 'status', 'now called This laptop')
    await card.getByRole('button', { name: 'Remove This laptop' }).waitFor()
    const checked = await checkBothSchemes(page, 'passkeys-security')
    expect(checked.axe).toEqual({})
    expect(checked.overflow).toEqual({})
  })

  it('signs in through passkey autofill, and the session says so', async () => {
    await context.clearCookies()
    // Hold the autofill request's options until the field is read: the virtual authenticator
    // answers at once, and the page would leave before the test looked at it.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/api/auth/passkey/generate-authenticate-options', async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/sign-in')
    // The field the browser offers passkeys in (conditional mediation).
    expect(await page.getByLabel('Email or username').getAttribute('autocomplete')).toBe('username webauthn')
    release()
    // The virtual authenticator answers the page's waiting conditional request as a person picking
    // their passkey from the field's suggestions would: no click, no password, no second step.
    await page.waitForURL(`${baseUrl}/account`)
    await page.unroute('**/api/auth/passkey/generate-authenticate-options')
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials[0]?.signCount).toBeGreaterThan(0)
    await page.goto('/account/activity')
    await page.getByText('You signed in with a passkey').first().waitFor()
  })

  it('signs in with the "Sign in with a passkey" button', async () => {
    await context.clearCookies()
    // Hold back the autofill request (the page's first options request is never answered), so that
    // the button is what signs in; its own options request goes through.
    let optionsRequests = 0
    await page.route('**/api/auth/passkey/generate-authenticate-options', (route) => {
      optionsRequests += 1
      if (optionsRequests > 1) void route.continue()
    })
    await page.goto('/sign-in')
    const button = page.getByRole('button', { name: 'Sign in with a passkey' })
    await button.waitFor()
    const checked = await checkBothSchemes(page, 'passkeys-sign-in')
    expect(checked.axe).toEqual({})
    expect(checked.overflow).toEqual({})
    await button.click()
    await page.waitForURL(`${baseUrl}/account`)
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    expect(optionsRequests).toBe(2)
    await page.unroute('**/api/auth/passkey/generate-authenticate-options')
  })

  it('removes the passkey, after which it no longer signs in', async () => {
    await page.goto('/account/security')
    const card = page.getByRole('region', { name: 'Passkeys' })
    await card.getByRole('button', { name: 'Remove This laptop' }).click()
    await card.getByRole('button', { name: 'Remove', exact: true }).click()
    await card.getByText('You have no passkey yet.').waitFor()

    await context.clearCookies()
    await page.goto('/sign-in')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await announced(page, 'alert', 'not registered with any account')
    expect(page.url()).toBe(`${baseUrl}/sign-in`)
  })
})
