/// The portal in a real Chromium against a Tessera on loopback with a real SMTP sink: what a person
/// does from sign-up to signing out a second device, plus what the server promises about serving
/// it (caching, SPA fallback) and the basics of access (narrow screens, keyboard).

import { gzipSync } from 'node:zlib'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { announced, focusRing, openNav, scrollWidth, tabUntilFocused } from './page-helpers.js'
import {
  axeViolations,
  checkBothSchemes,
  ensurePortalBuilt,
  freePort,
  hasChromium,
  launchChromium,
  screenshot,
} from './support.js'

if (!hasChromium) {
  console.warn(
    'Skipping the portal end-to-end tests (tests/e2e): Chromium not found: apt-get install -y chromium',
  )
}

const NAME = 'Ada Lovelace'
// Typed with capitals: stored lowercased, shown as typed, and signed in with in any case.
const USERNAME = 'Ada_L'
const GRACE = { name: 'Grace Hopper', email: 'grace@example.com', password: 'grace-password-789' }
const NEW_NAME = 'Ada King'
const EMAIL = 'ada@example.com'
const PASSWORD = 'first-password-123'
const NEW_PASSWORD = 'second-password-456'
// The second device names itself differently, so the Security page can tell the two apart.
const PHONE_USER_AGENT = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0'

describe.skipIf(!hasChromium)('the portal in Chromium', () => {
  let sink: SmtpSink
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  const pageErrors: string[] = []

  const newContext = async (
    options: { userAgent?: string; width?: number } = {},
  ): Promise<BrowserContext> => {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: options.width ?? 1280, height: 800 },
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    })
    context.setDefaultTimeout(10_000)
    context.on('weberror', (error) => pageErrors.push(error.error().message))
    return context
  }

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    sink = await startSmtpSink()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    // The run's PostgreSQL (global setup) hands out a migrated copy at once; PGlite would migrate first.
    tessera = await startTessera({
      kind: 'postgres',
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, SMTP_URL: sink.url },
      features: { emailVerification: { sendOnSignUp: true } },
    })
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await tessera?.cleanup()
    await sink?.close()
  })

  it('serves hashed assets for a year, pages never cached, client routes as the app, API misses as JSON', async () => {
    const index = await fetch(`${baseUrl}/`)
    expect(index.status).toBe(200)
    expect(index.headers.get('cache-control')).toBe('no-cache')
    const html = await index.text()
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1])
    expect(assets.length).toBeGreaterThanOrEqual(2)
    for (const asset of assets) {
      const response = await fetch(`${baseUrl}${asset}`)
      expect(response.status, asset).toBe(200)
      expect(response.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable')
    }

    const clientRoute = await fetch(`${baseUrl}/security`)
    expect(clientRoute.status).toBe(200)
    expect(clientRoute.headers.get('content-type')).toMatch(/^text\/html/)
    expect(clientRoute.headers.get('cache-control')).toBe('no-cache')
    expect(await clientRoute.text()).toBe(html)

    const apiMiss = await fetch(`${baseUrl}/api/auth/nope`)
    expect(apiMiss.status).toBe(404)
    expect(apiMiss.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await apiMiss.json()).toMatchObject({ code: 'NOT_FOUND' })
  })

  it('sends the first page as production code split by route, and reports its JavaScript', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      const scripts: { url: string; gzip: number }[] = []
      page.on('response', async (response) => {
        if (!response.url().endsWith('.js')) return
        scripts.push({ url: new URL(response.url()).pathname, gzip: gzipSync(await response.body()).length })
      })
      await page.goto('/sign-in')
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
      await page.waitForLoadState('networkidle')
      const total = scripts.reduce((sum, script) => sum + script.gzip, 0)
      console.info(
        `First page (/sign-in) JavaScript, gzipped: ${(total / 1024).toFixed(1)} KB in ${scripts.length} files`,
      )
      // Other pages are not loaded for the first one.
      expect(scripts.some((script) => /ActivityPage|SecurityPage|ProfilePage/.test(script.url))).toBe(false)
      // Redux Toolkit and RTK Query load with the account area, not with the pages a visit starts on.
      expect(scripts.some((script) => /\/redux-/.test(script.url))).toBe(false)
      // React DOM and React Router alone are about 82 KB. The budget was 100 KB; the passkey,
      // mailed-code and SSO ways in, the password toggle and the phone menu took it to about 101.4
      // (28 Nov, with SSO's form already loaded only when opened). 104 KB holds that line until the
      // shared layout is split again: the figure is printed above on every run.
      expect(total).toBeLessThan(104 * 1024)
    } finally {
      await context.close()
    }
  })

  it('fits the sign-in page in 360 px and lets the keyboard reach its form with a visible focus', async () => {
    const context = await newContext({ width: 360 })
    try {
      const page = await context.newPage()
      await page.goto('/sign-in')
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
      expect(await scrollWidth(page)).toBeLessThanOrEqual(360)

      const email = page.getByLabel('Email')
      const submit = page.getByRole('button', { name: 'Sign in', exact: true })
      expect(await tabUntilFocused(page, email)).toBe(true)
      expect(await focusRing(page)).not.toBe('none')
      expect(await tabUntilFocused(page, submit)).toBe(true)
      expect(await focusRing(page)).not.toBe('none')
    } finally {
      await context.close()
    }
  })

  describe('a person, from sign-up to signing out another device', () => {
    let first: BrowserContext
    let page: Page

    beforeAll(async () => {
      first = await newContext()
      page = await first.newPage()
    })

    afterAll(async () => {
      await first?.close()
    })

    // What the page showed when a step failed says more than a timeout does.
    afterEach(async ({ task }) => {
      if (task.result?.state === 'fail' && page !== undefined)
        await screenshot(page, `failed-${task.name.replace(/\W+/g, '-')}`)
    })

    it('signs up with a username and is asked to check their mail', async () => {
      await page.goto('/sign-up')
      await page.getByLabel('Name', { exact: true }).fill(NAME)
      await page.getByLabel('Email').fill(EMAIL)
      await page.getByLabel('Username').fill(USERNAME)
      // Asked once typing settles; the answer is read out and shown under the field.
      await page.getByText(`${USERNAME} is free.`).waitFor()
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      await screenshot(page, '01-sign-up')
      await page.getByRole('button', { name: 'Create account' }).click()

      await page.waitForURL('**/check-email')
      // Worded after the server's configuration (GET /portal-config): here the mail goes out at sign-up.
      await page.getByRole('heading', { name: 'Check your mail', level: 1 }).waitFor()
      expect(await page.getByRole('main').textContent()).toContain(EMAIL)
      await screenshot(page, '02-check-email')
    })

    it('opens the mailed link and sees the address verified', async () => {
      const mail = await sink.waitForMail(
        (m) => m.to.includes(EMAIL) && m.subject === 'Verify your email address',
        10_000,
      )
      const link = mail.links[0] ?? ''
      expect(link.startsWith(`${baseUrl}/api/auth/verify-email?`)).toBe(true)
      await page.goto(link)

      await page.waitForURL('**/email-verified/link')
      await page.getByRole('heading', { name: 'Email verified' }).waitFor()
      await screenshot(page, '03-verified')
      await page.getByRole('link', { name: 'Go to your account' }).click()
      await page.waitForURL('**/account')
      await openNav(page, 'Email')
      expect(await page.getByTestId('current-email').textContent()).toBe(EMAIL)
      expect(await page.getByText('Verified', { exact: true }).isVisible()).toBe(true)
    })

    it('signs out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL('**/sign-in')
      await announced(page, 'status', 'You are signed out.')
      await screenshot(page, '04-sign-in')
    })

    it('forgets the password, follows the mailed link and sets a new one', async () => {
      await page.getByRole('link', { name: 'Forgot your password?' }).click()
      // Sign-in's "Email or username" would match 'Email' too, while the next page loads.
      await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor()
      await page.getByLabel('Email').fill(EMAIL)
      await screenshot(page, '05-forgot-password')
      await page.getByRole('button', { name: 'Send reset link' }).click()
      await page.getByRole('heading', { name: 'Check your mail' }).waitFor()

      const mail = await sink.waitForMail(
        (m) => m.to.includes(EMAIL) && m.subject === 'Reset your password',
        10_000,
      )
      await page.goto(mail.links[0] ?? '')
      await page.waitForURL(/\/reset-password\?token=/)
      // The password the account has now is refused, under the field, and the link stays usable.
      await page.getByLabel('New password', { exact: true }).fill(PASSWORD)
      await page.getByLabel('Repeat the new password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Save new password' }).click()
      await page
        .locator('.field-error')
        .filter({ hasText: 'Choose a new password that is different from your current one.' })
        .waitFor()
      expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true')
      await screenshot(page, '06-reset-password-same')
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
      await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD)
      await screenshot(page, '06-reset-password')
      await page.getByRole('button', { name: 'Save new password' }).click()

      await page.waitForURL('**/sign-in')
      await announced(page, 'status', 'Your password has been changed')
    })

    it('cannot sign in with the old password, and can with the new one, by username', async () => {
      await signIn(page, PASSWORD)
      await announced(page, 'alert', 'The email or password is not right')

      await signIn(page, PASSWORD, 'ada_l')
      await announced(page, 'alert', 'The username or password is not right')

      await signIn(page, NEW_PASSWORD, 'ADA_L')
      await page.waitForURL('**/account')
      await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
      // The header and the profile show the username as it was typed at sign-up.
      await page.getByRole('banner').getByText(`@${USERNAME}`).waitFor()
      expect(await page.getByLabel('Username').inputValue()).toBe(USERNAME)
    })

    it('changes their name on Account', async () => {
      const profile = page.getByRole('form', { name: 'Profile' })
      await profile.getByLabel('Name', { exact: true }).fill(NEW_NAME)
      await profile.getByRole('button', { name: 'Save profile' }).click()
      await announced(profile, 'status', 'Your profile is saved.')
      await page.getByRole('banner').getByText(NEW_NAME).waitFor()
      await screenshot(page, '07-account')
    })

    it('sees the name change and the sign-ins in Activity, newest first, in plain words', async () => {
      await openNav(page, 'Activity')
      const entries = page.getByRole('list', { name: 'Account activity' }).getByRole('listitem')
      await entries.first().waitFor()
      const texts = await entries.allTextContents()

      expect(texts[0]).toContain('You changed your name')
      expect(texts.filter((text) => text.includes('You signed in')).length).toBeGreaterThanOrEqual(2)
      expect(texts.some((text) => text.includes('You reset your password'))).toBe(true)
      expect(texts.some((text) => text.includes('You verified your email address'))).toBe(true)
      expect(texts.at(-1)).toContain('You created your account')
      // Event names of the log are not words a person understands.
      expect(texts.filter((text) => text.includes('Account event:'))).toEqual([])
      await screenshot(page, '08-activity')
    })

    it('sees a second device, signs it out, and that device lands on sign-in', async () => {
      const second = await newContext({ userAgent: PHONE_USER_AGENT, width: 360 })
      try {
        const phone = await second.newPage()
        await phone.goto('/sign-in')
        await signIn(phone, NEW_PASSWORD)
        await phone.waitForURL('**/account')
        // A phone's width: the account pages, header and navigation included, fit without scrolling sideways.
        await phone.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
        expect(await scrollWidth(phone)).toBeLessThanOrEqual(360)
        await screenshot(phone, '10-account-360px')

        await openNav(page, 'Security')
        const devices = page.getByRole('list', { name: 'Signed-in devices' }).getByRole('listitem')
        await expect.poll(() => devices.count()).toBe(2)
        expect(await devices.filter({ hasText: 'This device' }).count()).toBe(1)
        expect(await devices.first().textContent()).toContain('This device')
        const phoneEntry = devices.filter({ hasText: 'Firefox on Android' })
        expect(await phoneEntry.count()).toBe(1)
        await page.getByRole('button', { name: 'Sign out all other devices (1)' }).waitFor()
        await screenshot(page, '09-security')

        await phoneEntry.getByRole('button', { name: 'End session' }).click()
        await expect.poll(() => devices.count()).toBe(1)
        expect(await devices.first().textContent()).toContain('This device')

        await phone.reload()
        await phone.waitForURL('**/sign-in')
        await phone.getByRole('heading', { name: 'Sign in' }).waitFor()

        // The history already shown once is refreshed by the change, not kept from before.
        await openNav(page, 'Activity')
        const entries = page.getByRole('list', { name: 'Account activity' }).getByRole('listitem')
        await expect.poll(() => entries.first().textContent()).toContain('You signed out Firefox on Android')
        const phoneSignIn = entries.nth(1)
        expect(await phoneSignIn.locator('.activity-what').textContent()).toBe('You signed in')
        // Drawn with a "·" between the facts; read with a pause.
        expect(await phoneSignIn.locator('.activity-where').textContent()).toBe(
          'Firefox on Android, 127.0.0.1',
        )

        // This device stays signed in.
        await page.reload()
        await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor()
        expect(new URL(page.url()).pathname).toBe('/account/activity')
      } finally {
        await second.close()
      }
    })

    it('adds a second account on this device, switches between them, and signs out of one', async () => {
      // Grace has her own account, made on another device.
      const elsewhere = await newContext()
      try {
        const other = await elsewhere.newPage()
        await other.goto('/sign-up')
        await other.getByLabel('Name', { exact: true }).fill(GRACE.name)
        await other.getByLabel('Email').fill(GRACE.email)
        await other.getByLabel('Password', { exact: true }).fill(GRACE.password)
        await other.getByRole('button', { name: 'Create account' }).click()
        await other.waitForURL('**/check-email')
      } finally {
        await elsewhere.close()
      }

      await openNav(page, 'Profile')
      const switcher = page.getByRole('button', { name: /^Accounts, signed in as/ })
      await switcher.click()
      const menu = page.getByRole('menu', { name: 'Accounts' })
      await menu.getByRole('menuitem', { name: 'Add another account' }).click()
      await page.waitForURL('**/sign-in?add-account')
      await page.getByRole('heading', { name: 'Add another account', level: 1 }).waitFor()
      await checkPage(page, 'add-account')
      await signIn(page, GRACE.password, GRACE.email)
      await page.waitForURL('**/account')
      await expect.poll(() => switcher.textContent()).toContain(GRACE.name)
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(GRACE.name)

      // Both accounts are listed, the active one checked; by keyboard, as the menu button pattern says.
      await switcher.focus()
      await page.keyboard.press('ArrowDown')
      const accounts = menu.getByRole('menuitemradio')
      await expect.poll(() => accounts.count()).toBe(2)
      expect(await menu.getByRole('menuitemradio', { checked: true }).textContent()).toContain(GRACE.name)
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitemradio')
      await checkPage(page, 'account-switcher-open', { keepOpen: switcher })
      await page.keyboard.press('Escape')
      expect(await switcher.evaluate((element) => element === document.activeElement)).toBe(true)

      await switcher.click()
      await menu.getByRole('menuitemradio', { name: new RegExp(NEW_NAME) }).click()
      await announced(page, 'status', `Switched to ${NEW_NAME}.`)
      await expect.poll(() => switcher.textContent()).toContain(NEW_NAME)
      await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe(NEW_NAME)

      await switcher.click()
      await menu.getByRole('menuitem', { name: `Sign out of ${GRACE.name}` }).click()
      await announced(page, 'status', `Signed out of ${GRACE.name}.`)
      await switcher.click()
      await expect.poll(() => accounts.count()).toBe(1)
      await page.keyboard.press('Escape')
      // Still Ada, after a reload too.
      await page.reload()
      await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
      expect(await switcher.textContent()).toContain(NEW_NAME)
    })

    it('asks to delete the account, and confirms it from the mailed link in a signed-out browser', async () => {
      await openNav(page, 'Profile')
      await page.getByRole('button', { name: 'Delete account…' }).click()
      await page.getByLabel('Your password').fill(NEW_PASSWORD)
      await page.getByLabel('I understand that my account will be deleted for good').check()
      await page.getByRole('button', { name: 'Delete my account' }).click()
      await page.getByText('Check your mail.').waitFor()

      const mail = await sink.waitForMail(
        (m) => m.to.includes(EMAIL) && m.subject === 'Confirm the deletion of your account',
        10_000,
      )
      // A phone's mail app: another browser, signed out.
      const phoneContext = await newContext({ userAgent: PHONE_USER_AGENT, width: 375 })
      try {
        const phone = await phoneContext.newPage()
        await phone.goto(mail.links[0] ?? '')
        await phone.waitForURL(/\/confirm-deletion\?token=/)
        await phone.getByRole('heading', { name: 'Sign in to delete your account', level: 1 }).waitFor()
        await checkPage(phone, 'confirm-deletion-signed-out')
        await phone.getByRole('link', { name: 'Sign in to continue' }).click()
        await signIn(phone, NEW_PASSWORD, USERNAME)
        // Back on the page the link opened, to confirm.
        await phone.waitForURL(/\/confirm-deletion\?token=/)
        await phone.getByRole('heading', { name: 'Delete your account for good?', level: 1 }).waitFor()
        await checkPage(phone, 'confirm-deletion')
        await phone.getByRole('button', { name: 'Delete my account' }).click()
        await phone.waitForURL('**/goodbye/link')
        await phone.getByRole('heading', { name: 'Your account is deleted' }).waitFor()

        // The same link a second time: no longer valid, said in words, never raw JSON.
        await phone.goto(mail.links[0] ?? '')
        await phone.waitForURL('**/confirm-deletion?error=INVALID_TOKEN')
        await phone.getByRole('heading', { name: 'This link is no longer valid', level: 1 }).waitFor()
        await checkPage(phone, 'confirm-deletion-used-link')
        expect(await phone.locator('body').textContent()).not.toContain('"code"')
      } finally {
        await phoneContext.close()
      }
      // The first device is signed out too.
      await page.reload()
      await page.waitForURL('**/sign-in')
    })

    it('raised no uncaught errors in the pages', () => {
      expect(pageErrors).toEqual([])
    })
  })
})

/** No axe violation, nothing scrolling sideways, and screenshots at 1280 and 375 px (light and dark; a menu held open: light). */
const checkPage = async (page: Page, name: string, options: { keepOpen?: Locator } = {}): Promise<void> => {
  expect(await axeViolations(page), `axe on ${name}`).toEqual([])
  if (options.keepOpen) {
    // The menu closes when the window is resized: picture it open at each width.
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 })
      if ((await options.keepOpen.getAttribute('aria-expanded')) !== 'true') await options.keepOpen.click()
      expect(await scrollWidth(page), `${name} at ${width}`).toBeLessThanOrEqual(width)
      await screenshot(page, `${name}-${width}`)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
    return
  }
  expect(await checkBothSchemes(page, name), `axe and overflow on ${name}`).toEqual({ axe: {}, overflow: {} })
}

const signIn = async (page: Page, password: string, identifier = EMAIL): Promise<void> => {
  await page.getByLabel('Email or username').fill(identifier)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}
