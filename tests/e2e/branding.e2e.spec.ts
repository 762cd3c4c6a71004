/// Issue 32, item 18, in Chromium: an operator's branding on the sign-in page (name, back link,
/// accent behind the primary button with readable text, tab title), with axe at zero in both
/// colour schemes at 1280 and 375 px.

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { checkBothSchemes, ensurePortalBuilt, freePort, hasChromium, launchChromium } from './support.js'

describe.skipIf(!hasChromium)('branding in Chromium', () => {
  let tessera: TestTessera
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl },
      features: {
        // A mid-tone white text does not read on at 4.5:1: the server shades it.
        branding: {
          productName: 'Acme Accounts',
          accentColor: '#1c7ed6',
          backLink: { label: 'Acme', url: 'https://app.acme.example' },
        },
      },
    })
    browser = await launchChromium()
    page = await browser.newPage({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
  })

  afterAll(async () => {
    await browser?.close()
    await tessera?.cleanup()
  })

  it('names the product, links back, and dresses the primary button in the accent', async () => {
    await page.goto('/sign-in')
    await page.getByRole('link', { name: 'Acme Accounts' }).waitFor()
    expect(await page.getByRole('link', { name: /Back to Acme/ }).getAttribute('href')).toBe(
      'https://app.acme.example',
    )
    await expect.poll(() => page.title()).toMatch(/ · Acme Accounts$/)
    const button = page.getByRole('button', { name: 'Sign in', exact: true })
    const colours = await button.evaluate((element) => {
      const style = getComputedStyle(element)
      return { background: style.backgroundColor, text: style.color }
    })
    expect(colours.text).toBe('rgb(255, 255, 255)')
    expect(colours.background).not.toBe('rgb(9, 105, 218)')
    await page.waitForLoadState('networkidle')
    expect(await checkBothSchemes(page, 'branding-sign-in')).toEqual({ axe: {}, overflow: {} })
  })
})
