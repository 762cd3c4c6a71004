/// A session ended elsewhere, in a real Chromium: an owner edits the organization's details while
/// another device signs every other session out; the save is refused, the portal says why on the
/// sign-in page, and after signing in again the settings page holds the edit, says so, and saves
/// it. The restored form is checked with axe and pictured at 1280 and 375 px, light and dark.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { announced } from './page-helpers.js'
import {
  checkBothSchemes,
  ensurePortalBuilt,
  freePort,
  hasChromium,
  launchChromium,
  screenshot,
} from './support.js'

const OWNER = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical-engine-1843' }

/** A call from inside the page: same origin, its cookies. */
const call = (page: Page, path: string, body: object) =>
  page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(`/api/auth${path}`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return { status: response.status, json: (await response.json()) as Record<string, unknown> }
    },
    { path, body },
  )

describe.skipIf(!hasChromium)('a draft kept across a session ended elsewhere, in Chromium', () => {
  let tessera: TestTessera
  let browser: Browser
  let contexts: BrowserContext[] = []
  let owner: Page
  let elsewhere: Page

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({ listen: true, portalDir, env: { PORT: String(port), BASE_URL: baseUrl } })
    browser = await launchChromium()
    const open = async () => {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
      context.setDefaultTimeout(15_000)
      contexts.push(context)
      return context.newPage()
    }
    owner = await open()
    elsewhere = await open()
  }, 400_000)

  afterAll(async () => {
    for (const context of contexts) await context.close()
    contexts = []
    await browser?.close()
    await tessera?.cleanup()
  })

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && owner) await screenshot(owner, 'failed-drafts-owner')
  })

  it('keeps the organization edit through signing in again, says so, and saves it', async () => {
    await owner.goto('/sign-in')
    expect((await call(owner, '/sign-up/email', OWNER)).status).toBe(200)
    const created = await call(owner, '/organization/create', { name: 'Analytical Engines', slug: 'engines' })
    expect(created.status).toBe(200)
    const settings = `/account/organizations/${String(created.json.id)}/settings`
    await owner.goto(settings)
    await owner.getByLabel('Organization name').fill('Difference Engines')

    // Another device signs in and signs every other session out.
    await elsewhere.goto('/sign-in')
    expect(
      (await call(elsewhere, '/sign-in/email', { email: OWNER.email, password: OWNER.password })).status,
    ).toBe(200)
    expect((await call(elsewhere, '/revoke-other-sessions', {})).status).toBe(200)

    await owner.getByRole('button', { name: 'Save', exact: true }).click()
    await owner.getByRole('heading', { name: 'Sign in' }).waitFor()
    await owner.getByText(/Your session ended \(signed out on another device, or expired\)/).waitFor()
    await owner.getByLabel('Email or username').fill(OWNER.email)
    await owner.getByLabel('Password', { exact: true }).fill(OWNER.password)
    await owner.getByRole('button', { name: 'Sign in', exact: true }).click()

    await owner.waitForURL(`**${settings}`)
    expect(await owner.getByLabel('Organization name').inputValue()).toBe('Difference Engines')
    await owner.getByText(/Your session ended before these changes were saved/).waitFor()
    await owner.waitForLoadState('networkidle')
    expect(await checkBothSchemes(owner, 'draft-restored-settings')).toEqual({ axe: {}, overflow: {} })
    await owner.getByRole('button', { name: 'Save', exact: true }).click()
    await announced(owner, 'status', 'The organization is saved.')
    expect(await owner.getByText(/Your session ended before these changes were saved/).count()).toBe(0)
  })
})
