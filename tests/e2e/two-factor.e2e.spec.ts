/// Two-factor in a real Chromium: a person turns it on from the Security page (reading the key the
/// page shows and computing the code as an authenticator app would), sees their backup codes, then
/// signs in on another browser: the password leads to the second step, the code to the account.
/// Both pages are checked with axe and pictured at 1280 and 375 px, light and dark.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { base32Decode, hotp, timeStep } from '../../infra/crypto/totp.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import {
  checkBothSchemes,
  ensurePortalBuilt,
  freePort,
  hasChromium,
  launchChromium,
  screenshot,
} from './support.js'

const PERSON = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical-engine-1843' }

/** The authenticator's code, `offset` steps from now. */
const codeFor = (key: string, offset = 0) => hotp(base32Decode(key), timeStep(new Date(), 30) + offset, 6)

const checkPage = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle')
  expect(await checkBothSchemes(page, `two-factor-${name}`), `axe and overflow on ${name}`).toEqual({
    axe: {},
    overflow: {},
  })
}

describe.skipIf(!hasChromium)('two-factor in Chromium', () => {
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  const contexts: BrowserContext[] = []
  const pages: Page[] = []

  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(30_000)
    contexts.push(context)
    const page = await context.newPage()
    pages.push(page)
    return page
  }

  const signIn = async (page: Page) => {
    await page.goto('/sign-in')
    await page.getByLabel('Email or username').fill(PERSON.email)
    await page.getByLabel('Password', { exact: true }).fill(PERSON.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  }

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl },
    })
    browser = await launchChromium()
    const signedUp = await tessera.api.request('POST', '/sign-up/email', PERSON)
    expect(signedUp.status).toBe(200)
    // Building the portal and starting Chromium take minutes on a machine shared by many runs.
  }, 600_000)

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await tessera?.cleanup()
  })

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return
    for (const [i, page] of pages.entries()) await screenshot(page, `failed-two-factor-${i}`)
  })

  let key = ''

  it('turns two-factor on from the Security page with a first code, and shows the backup codes', async () => {
    const page = await newPage()
    await signIn(page)
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    await page.goto('/account/security')
    // The page has other password forms (connected accounts): act inside the two-factor card.
    const card = page.getByRole('region', { name: 'Two-factor authentication' })
    await card.getByRole('button', { name: 'Set up an authenticator app' }).click()
    await card.getByLabel('Your password', { exact: true }).fill(PERSON.password)
    await card.getByRole('button', { name: 'Continue' }).click()
    await page.getByAltText(/QR code/).waitFor()
    key = (await page.locator('.two-factor-key').textContent()) ?? ''
    expect(key).toMatch(/^[A-Z2-7]{32}$/)
    await checkPage(page, 'setup')
    await page.getByLabel('Code from the app').fill(codeFor(key))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByText(/Two-factor authentication is on/).waitFor()
    expect(await page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').count()).toBe(10)
    await checkPage(page, 'backup-codes')
  })

  it('asks another browser for the second step after the password, and lets it in with a code', async () => {
    const page = await newPage()
    await signIn(page)
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/two-factor')
    expect(await page.request.get('/api/auth/get-session').then((r) => r.json())).toBeNull()
    await checkPage(page, 'second-step')
    // The code of the step just used is spent: the next step's code (one step of drift) is not.
    await page.getByLabel('Code from your authenticator app').fill(codeFor(key, 1))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    const session = (await page.request.get('/api/auth/get-session').then((r) => r.json())) as {
      user: { email: string }
    }
    expect(session.user.email).toBe(PERSON.email)
  })
})
