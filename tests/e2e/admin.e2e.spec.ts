/// The operator console in a real Chromium against Tessera on PostgreSQL: an operator (made admin
/// through the server API) finds a person in the user directory by part of their name, opens their
/// page (their sign-in accounts and organizations with their role), sends them a password reset
/// link, bans them with a reason (the person's open session in another browser dies at once, the ban
/// shows in their history, in words), finds the ban in the service-wide audit, then impersonates another
/// person (a banner says so) and stops. Every page is checked with axe and pictured at 1280 and
/// 375 px, light and dark.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import {
  checkBothSchemes,
  ensurePortalBuilt,
  freePort,
  hasChromium,
  launchChromium,
  screenshot,
} from './support.js'

const SERVER_KEY = 'backend-key-0123456789abcdef0123456789'
const OPERATOR = { name: 'Olive Operator', email: 'olive@example.com', password: 'support-desk-2026' }
const PERSON = { name: 'Grace Hopper', email: 'grace@example.com', password: 'compiler-a0-1952' }

const checkPage = async (page: Page, name: string) => {
  await page.locator('h1').first().waitFor()
  await page.waitForLoadState('networkidle')
  expect(await checkBothSchemes(page, `admin-${name}`), `axe and overflow on ${name}`).toEqual({
    axe: {},
    overflow: {},
  })
}

const signUp = async (page: Page, person: typeof OPERATOR) => {
  await page.goto('/sign-up')
  await page.getByLabel('Name', { exact: true }).fill(person.name)
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password', { exact: true }).fill(person.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForURL('**/check-email')
}

describe.skipIf(!hasChromium)('operator console in Chromium', () => {
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  let operatorContext: BrowserContext
  let operator: Page
  let personContext: BrowserContext
  let person: Page
  const pageErrors: string[] = []

  const newContext = async (): Promise<BrowserContext> => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(10_000)
    context.on('weberror', (error) => pageErrors.push(error.error().message))
    return context
  }

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      kind: 'postgres',
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, SERVER_KEYS: `ops=${SERVER_KEY}` },
    })
    browser = await launchChromium()
    operatorContext = await newContext()
    operator = await operatorContext.newPage()
    personContext = await newContext()
    person = await personContext.newPage()
  })

  afterAll(async () => {
    await operatorContext?.close()
    await personContext?.close()
    await browser?.close()
    await tessera?.cleanup()
  })

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return
    const slug = task.name.replace(/\W+/g, '-')
    if (operator) await screenshot(operator, `failed-admin-operator-${slug}`)
    if (person) await screenshot(person, `failed-admin-person-${slug}`)
  })

  it('the operator, made admin through the server API, finds the person in the directory', async () => {
    await signUp(person, PERSON)
    await signUp(operator, OPERATOR)
    const session = (await operator.request.get('/api/auth/get-session')).json()
    const operatorId = ((await session) as { user: { id: string } }).user.id
    const promoted = await tessera.api.request(
      'POST',
      '/admin/set-role',
      { userId: operatorId, role: 'admin' },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(promoted.status).toBe(200)

    await operator.goto('/account')
    await operator.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Users' }).click()
    await operator.getByRole('heading', { name: 'Users', level: 1 }).waitFor()
    await operator.getByLabel('Search').fill('hopp')
    await operator.getByRole('link', { name: PERSON.name }).waitFor()
    await expect.poll(() => operator.getByRole('link', { name: OPERATOR.name }).count()).toBe(0)
    await checkPage(operator, 'users-search')
  })

  it('bans them with a reason: their open session ends at once', async () => {
    await person.goto('/account')
    await person.getByRole('heading', { level: 1 }).first().waitFor()
    expect(new URL(person.url()).pathname).toBe('/account')
    // The server says no to them (has-permission), so their menu has no console.
    await person.waitForLoadState('networkidle')
    const personNav = person.getByRole('navigation', { name: 'Account' })
    await personNav.getByRole('link', { name: 'Organizations' }).waitFor()
    expect(await personNav.getByRole('link', { name: 'Users' }).count()).toBe(0)

    const created = await person.request.post('/api/auth/organization/create', {
      data: { name: 'Analytical Engines', slug: 'analytical-engines' },
      headers: { origin: baseUrl },
    })
    expect(created.status()).toBe(200)

    await operator.getByRole('link', { name: PERSON.name }).click()
    await operator.getByRole('heading', { name: PERSON.name, level: 1 }).waitFor()
    const accounts = operator.getByRole('region', { name: 'Sign-in accounts' })
    await expect.poll(() => accounts.textContent()).toContain('Email and password')
    const organizations = operator.getByRole('region', { name: 'Organizations' })
    await expect.poll(() => organizations.textContent()).toContain('Analytical Engines')
    expect(await organizations.textContent()).toContain('owner')
    // The history in words: her sign-up and sign-in, from this browser.
    const history = operator.locator('ol.admin-activity')
    await expect.poll(() => history.textContent()).toContain(`Signed up as ${PERSON.email}`)
    expect(await history.textContent()).toMatch(/Signed in from (Headless )?Chrome on /)
    await checkPage(operator, 'user')

    // A reset link goes to the person (the public request, answered alike for any address).
    await operator.getByRole('button', { name: 'Send a password reset link' }).click()
    await operator.getByText(`A reset link was sent to ${PERSON.email}`).waitFor()
    // The request is recorded after the answer (its timing tells nothing): the history shows it
    // with the ban's, below.
    await operator.getByLabel('Reason').fill('Spam in the forums')
    await operator.getByLabel('For how long').selectOption('86400')
    await operator.getByRole('button', { name: `Ban ${PERSON.name}…` }).click()
    // Banning ends their sessions: the console asks first, names it, and Cancel has focus.
    await operator.getByText(`Ban ${PERSON.name} for 1 day?`).waitFor()
    await operator.getByText(/Every session of theirs ends at once/).waitFor()
    expect(await operator.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
    await checkPage(operator, 'user-ban-confirm')
    // On a phone, the first red button on the page is not the ban (the person's details come first).
    await operator.setViewportSize({ width: 375, height: 800 })
    const firstRed = await operator.evaluate(() => {
      const red = [...document.querySelectorAll('main button')].find((button) =>
        button.classList.contains('button-danger'),
      )
      const heading = document.querySelector('main h2')
      return {
        text: red?.textContent ?? null,
        belowDetails:
          red !== undefined &&
          heading !== null &&
          red.getBoundingClientRect().top > heading.getBoundingClientRect().top,
      }
    })
    expect(firstRed).toEqual({ text: `Ban ${PERSON.name}`, belowDetails: true })
    await screenshot(operator, 'admin-user-ban-confirm-phone')
    await operator.setViewportSize({ width: 1280, height: 800 })
    await operator.getByRole('button', { name: `Ban ${PERSON.name}`, exact: true }).click()
    await operator.getByRole('button', { name: 'Lift the ban' }).waitFor()
    // The profile's status: its <dt> and <dd> read as one text.
    await expect.poll(() => operator.locator('.admin-profile').textContent()).toContain('StatusBanned')
    // The person's history, from the log, has the ban.
    await expect
      .poll(() => history.textContent())
      .toContain('Banned by an operator: reason Spam in the forums')
    expect(await history.textContent()).toContain('A password reset link was requested')
    expect(await history.textContent()).not.toContain('user.banned')
    await checkPage(operator, 'user-banned')

    // The person's session is gone: the portal sends them to sign in, and signing in is refused.
    await person.reload()
    await person.waitForURL('**/sign-in**')
    const refused = await person.request.post('/api/auth/sign-in/email', {
      data: { email: PERSON.email, password: PERSON.password },
      headers: { origin: baseUrl },
    })
    expect(refused.status()).toBe(403)
    expect(((await refused.json()) as { code: string }).code).toBe('BANNED_USER')
  })

  it('the ban is in the audit, by the operator, filtered by action', async () => {
    await operator.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Audit' }).click()
    await operator.getByRole('heading', { name: 'Audit', level: 1 }).waitFor()
    await operator.getByLabel('Action', { exact: true }).selectOption('user.banned')
    const entries = operator.locator('ol.admin-activity > li')
    await expect.poll(() => entries.count()).toBe(1)
    const entry = (await entries.first().textContent()) ?? ''
    // In words, with the duration and the reason; who did it, by name; no event type.
    expect(entry).toContain(`Banned ${PERSON.name} for a day: Spam in the forums`)
    expect(entry).toContain(`By ${OPERATOR.name}`)
    expect(entry).not.toContain('user.banned')
    await checkPage(operator, 'audit-bans')
  })

  it('impersonates another person, with a banner while it lasts, and stops', async () => {
    const signedUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'analytical-engine-1843',
    })
    expect(signedUp.status).toBe(200)
    const adaId = (signedUp.json as { user: { id: string } }).user.id
    await operator.goto(`/admin/users/${adaId}`)
    await operator.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor()
    await operator.getByRole('button', { name: 'Impersonate for an hour…' }).click()
    await operator.getByText('Act as Ada Lovelace for an hour?').waitFor()
    await checkPage(operator, 'impersonate-confirm')
    await operator.getByRole('button', { name: 'Impersonate Ada Lovelace' }).click()
    await operator.waitForURL('**/account')
    await operator.getByText('You are acting as').waitFor()
    expect(
      await operator.getByRole('status').filter({ hasText: 'You are acting as' }).textContent(),
    ).toContain('Ada Lovelace')
    // Acting as Ada, the menu is Ada's: the server says she may not use the console.
    const actingNav = operator.getByRole('navigation', { name: 'Account' })
    await expect.poll(() => actingNav.getByRole('link', { name: 'Users' }).count()).toBe(0)
    await checkPage(operator, 'impersonating')

    expect(await operator.getByRole('status').filter({ hasText: 'You are acting as' }).textContent()).toMatch(
      /(59|60) minutes left/,
    )
    await operator.getByRole('button', { name: 'Stop impersonating' }).click()
    // Back on Ada's page in the console, where the operator came from.
    await operator.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor()
    await operator.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Users' }).waitFor()
    const back = (await (await operator.request.get('/api/auth/get-session')).json()) as {
      user: { email: string }
      session: { impersonatedBy?: string | null }
    }
    expect(back.user.email).toBe(OPERATOR.email)
    expect(back.session.impersonatedBy ?? null).toBeNull()
    expect(pageErrors).toEqual([])
  })
})
