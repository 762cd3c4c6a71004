/// Every page of the portal in a real Chromium: no axe-core violation and nothing scrolling sideways
/// at 375 px, in light and dark, and screenshots of both schemes at 1280 and 375 px in
/// test-artifacts/e2e for people to look at. Plus keyboard-only walks of sign-up and sign-in.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserFor } from '../support/browser.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { tabUntilFocused } from './page-helpers.js'
import { checkBothSchemes, ensurePortalBuilt, freePort, hasChromium, launchChromium } from './support.js'

const NAME = 'Grace Brewster Murray Hopper'
const EMAIL = 'grace@example.com'
const PASSWORD = 'cobol-and-compilers-1959'

// Tessera behind a proxy that places each client's address (Vercel's headers, the city
// percent-encoded), so the Security and Activity pages are pictured with places in them.
const PROXY = {
  TRUST_PROXY: '1',
  PLACE_COUNTRY_HEADER: 'X-Vercel-IP-Country',
  PLACE_CITY_HEADER: 'X-Vercel-IP-City',
}
const placed = (ip: string, country?: string, city?: string): Record<string, string> => ({
  'x-forwarded-for': ip,
  ...(country ? { 'x-vercel-ip-country': country } : {}),
  ...(city ? { 'x-vercel-ip-city': encodeURIComponent(city) } : {}),
})
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0'

/**
 * A page passes when axe finds nothing and nothing overflows, in light and in dark; the
 * screenshots (both schemes, both widths) are kept either way.
 */
const check = async (page: Page, name: string) => {
  await page.locator('h1').first().waitFor()
  expect(await checkBothSchemes(page, name), `axe and overflow on ${name}`).toEqual({ axe: {}, overflow: {} })
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '')
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement
    return element instanceof HTMLInputElement ? (element.labels?.[0]?.textContent ?? '') : ''
  })

describe.skipIf(!hasChromium)('every page, checked and pictured', () => {
  let tessera: TestTessera
  let browser: Browser
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      kind: 'postgres',
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, ...PROXY },
    })
    browser = await launchChromium()
    context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1280, height: 800 },
      extraHTTPHeaders: placed('203.0.113.7', 'DE', 'München'),
    })
    context.setDefaultTimeout(10_000)
    page = await context.newPage()
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await tessera?.cleanup()
  })

  it('sign-up, walked with the keyboard only: errors focus the first field, Enter submits', async () => {
    await page.goto('/sign-up')
    await check(page, 'sign-up')
    const name = page.getByLabel('Name', { exact: true })
    expect(await tabUntilFocused(page, name)).toBe(true)
    await page.keyboard.press('Enter')
    // Nothing filled in: the first field in error takes focus, and the problems are announced.
    await page.getByRole('alert').filter({ hasText: '3 fields need attention' }).waitFor()
    expect(await focusedLabel(page)).toBe('Name')
    await check(page, 'sign-up-errors')

    await page.keyboard.type(NAME)
    await page.keyboard.press('Tab')
    expect(await focusedLabel(page)).toBe('Email')
    await page.keyboard.type(EMAIL)
    await page.keyboard.press('Tab')
    // The optional username: its rules are read with it; left empty here.
    expect(await focusedLabel(page)).toBe('Username (optional)')
    await page.keyboard.press('Tab')
    expect(await focusedLabel(page)).toBe('Password')
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press('Enter')
    await page.waitForURL('**/check-email')
    await check(page, 'check-email')
  })

  it('the signed-in person is sent from sign-in to their account', async () => {
    // Sign-up signs in (autoSignIn): sign-in, sign-up and forgot-password send them on.
    for (const path of ['/sign-in', '/sign-up', '/forgot-password']) {
      await page.goto(path)
      await page.waitForURL('**/account')
    }
  })

  it('devices elsewhere: where each was, on Security and in the activity', async () => {
    const signIn = async (userAgent: string, headers: Record<string, string>) => {
      const device = browserFor(tessera, { 'user-agent': userAgent, ...headers })
      expect((await device.post('/sign-in/email', { email: EMAIL, password: PASSWORD })).status).toBe(200)
      return device
    }
    const phone = await signIn(SAFARI_IPHONE, placed('198.51.100.23', 'FR', 'Lyon'))
    // Things done beyond the account itself show in its activity too, in words.
    expect(
      (await phone.post('/organization/create', { name: 'Lovelace Labs', slug: 'lovelace-labs' })).status,
    ).toBe(200)
    expect((await phone.post('/api-key/create', { name: 'Deploys' })).status).toBe(200)
    // No place known for this one: its entry names none.
    await signIn(FIREFOX_WINDOWS, placed('192.0.2.44'))
    await signIn(FIREFOX_MAC, placed('198.51.100.61', 'JP', 'Ōsaka'))

    await page.goto('/account/security')
    const devices = page.getByRole('list', { name: 'Signed-in devices' })
    await devices.getByRole('listitem').nth(3).waitFor()
    const location = (device: string) =>
      devices
        .getByRole('listitem', { name: device })
        .locator('dt', { hasText: 'Location' })
        .locator('xpath=following-sibling::dd[1]')
    expect(await location('Safari on iOS').textContent()).toBe('Lyon, France')
    expect(await location('Firefox on macOS').textContent()).toBe('Ōsaka, Japan')
    expect(await location('Firefox on Windows').count()).toBe(0)
    expect(await devices.getByRole('listitem').first().textContent()).toContain('München, Germany')

    await devices
      .getByRole('listitem', { name: 'Firefox on macOS' })
      .getByRole('button', { name: 'End session' })
      .click()
    await page.getByRole('status').filter({ hasText: 'Firefox on macOS is signed out.' }).waitFor()

    await page.goto('/account/activity')
    const activity = page.getByRole('list', { name: 'Account activity' })
    await activity.getByText('You signed out Firefox on macOS in Ōsaka, Japan').waitFor()
    await activity.getByText('Safari on iOS, Lyon, France, 198.51.100.23').first().waitFor()
    await activity.getByText('You created the organization Lovelace Labs').waitFor()
    await activity.getByText('You created the API key “Deploys”').waitFor()
  })

  it('the account pages, one by one, through the navigation', async () => {
    await page.goto('/account')
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    await check(page, 'account-profile')
    await page.getByRole('button', { name: 'Delete account…' }).click()
    await check(page, 'account-profile-delete-open')
    await page.getByRole('button', { name: 'Cancel' }).click()

    for (const [link, slug] of [
      ['Email', 'email'],
      ['Password', 'password'],
      ['Security', 'security'],
      ['Activity', 'activity'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: link }).click()
      const heading = page.getByRole('heading', { name: link, level: 1 })
      await heading.waitFor()
      // Client-side navigation puts focus on the new page's heading.
      expect(await heading.evaluate((element) => element === document.activeElement)).toBe(true)
      await page.waitForLoadState('networkidle')
      await check(page, `account-${slug}`)
    }
  })

  it('sign-in, walked with the keyboard only, after signing out', async () => {
    await page.goto('/account')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL('**/sign-in')
    await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor()
    await check(page, 'sign-in')

    expect(await tabUntilFocused(page, page.getByLabel('Email'))).toBe(true)
    await page.keyboard.type(EMAIL)
    await page.keyboard.press('Tab')
    expect(await focusedLabel(page)).toBe('Password')
    await page.keyboard.type('not the password')
    await page.keyboard.press('Enter')
    await page.getByRole('alert').filter({ hasText: 'The email or password is not right' }).waitFor()
    await check(page, 'sign-in-wrong-password')

    await page.getByLabel('Password', { exact: true }).focus()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press('Enter')
    await page.waitForURL('**/account')
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()

    // On to Security by keyboard: Tab to the link, Enter, and focus lands on the heading.
    const security = page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' })
    expect(await tabUntilFocused(page, security)).toBe(true)
    await page.keyboard.press('Enter')
    await page.waitForURL('**/account/security')
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor()
    expect(await focusedText(page)).toBe('Security')
    // The header's button, not "Sign out all other devices" on this page.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.waitForURL('**/sign-in')
  })

  // About twenty pages, each checked and pictured at two widths in two schemes: minutes on a busy machine.
  it('the public pages a person reaches from links and mails', { timeout: 360_000 }, async () => {
    await page.goto('/forgot-password')
    await check(page, 'forgot-password')
    await page.getByLabel('Email').fill(EMAIL)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor()
    await check(page, 'forgot-password-sent')

    await page.goto('/reset-password?token=some-token')
    await check(page, 'reset-password')
    await page.getByRole('button', { name: 'Save new password' }).click()
    await page.getByRole('alert').filter({ hasText: 'need attention' }).waitFor()
    expect(await page.getByText('Repeat the new password.', { exact: true }).count()).toBe(1)
    await page.goto('/reset-password')
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor()
    expect(await page.title()).toBe('This link does not work · Tessera')
    await check(page, 'reset-password-bad-link')

    for (const [path, name, heading] of [
      ['/email-verified/link', 'email-verified', 'Email verified'],
      ['/email-verified', 'email-verified-by-hand', 'Email verification'],
      [
        '/email-verified/link?error=token_expired',
        'email-verified-expired',
        'We could not verify your email',
      ],
      ['/goodbye', 'goodbye-by-hand', 'You are signed out'],
      ['/confirm-deletion?token=some-token', 'confirm-deletion-by-hand', 'Sign in to delete your account'],
      ['/confirm-deletion', 'confirm-deletion-no-token', 'This link is no longer valid'],
      ['/goodbye/link', 'goodbye', 'Your account is deleted'],
      ['/check-email', 'check-email-by-hand', 'Confirm your email address'],
      ['/nowhere', 'not-found', 'Page not found'],
    ] as const) {
      await page.goto(path)
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor()
      await check(page, name)
    }
  })
})
