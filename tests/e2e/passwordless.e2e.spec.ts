/// Sign-in by a mailed link and by a mailed code in a real Chromium, with the mails read from the
/// real SMTP sink: "Email me a link" and the link opened, "Email me a code" and the code typed, each
/// landing signed in. A person with two-factor on is asked for the second step after either (Tessera
/// departs from better-auth here, which lets both skip it), and the authenticator's code lets them
/// in. Each page is checked with axe and pictured at 1280 and 375 px, light and dark.

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { codeAt, enrolled } from '../support/two-factor.js'
import {
  checkBothSchemes,
  ensurePortalBuilt,
  freePort,
  hasChromium,
  launchChromium,
  screenshot,
} from './support.js'

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical-engine-1843' }
const GRACE = 'grace@example.com'

const checkPage = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle')
  expect(await checkBothSchemes(page, `passwordless-${name}`), `axe and overflow on ${name}`).toEqual({
    axe: {},
    overflow: {},
  })
}

describe.skipIf(!hasChromium)('sign-in by a mailed link or code in Chromium', () => {
  let sink: SmtpSink
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  let totpURI = ''
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

  const session = async (page: Page) =>
    (await page.request.get('/api/auth/get-session').then((r) => r.json())) as {
      user: { email: string }
    } | null

  /** The sign-in page with the address typed, and one of the mail buttons pressed. */
  const ask = async (page: Page, email: string, button: 'Email me a link' | 'Email me a code') => {
    sink.clear()
    await page.goto('/sign-in')
    await page.getByLabel('Email or username').fill(email)
    await page.getByRole('button', { name: button }).click()
  }

  const mailTo = (email: string, subject: string) =>
    sink.waitForMail((m) => m.to.includes(email) && m.subject === subject, 30_000)

  const mailedCode = async (email: string) => {
    const code = /Your code is (\d+)/.exec((await mailTo(email, 'Your sign-in code')).text)?.[1]
    if (!code) throw new Error('no code in the mail')
    return code
  }

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    sink = await startSmtpSink()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, SMTP_URL: sink.url },
    })
    browser = await launchChromium()
    expect((await tessera.api.request('POST', '/sign-up/email', ADA)).status).toBe(200)
    totpURI = (await enrolled(tessera, GRACE, new Date())).totpURI
    // Building the portal and starting Chromium take minutes on a machine shared by many runs.
  }, 600_000)

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await tessera?.cleanup()
    await sink?.close()
  })

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return
    for (const [i, page] of pages.entries()) await screenshot(page, `failed-passwordless-${i}`)
  })

  it('mails a link that signs the person in when opened', async () => {
    const page = await newPage()
    await ask(page, ADA.email, 'Email me a link')
    await page.getByText(/a sign-in link is on its way/).waitFor()
    await checkPage(page, 'link-sent')
    const mail = await mailTo(ADA.email, 'Your sign-in link')
    await page.goto(mail.links[0] ?? '')
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    expect((await session(page))?.user.email).toBe(ADA.email)
  })

  it('mails a code that signs the person in when typed', async () => {
    const page = await newPage()
    await ask(page, ADA.email, 'Email me a code')
    await page.getByLabel('Code from the mail').waitFor()
    await checkPage(page, 'code-sent')
    await page.getByLabel('Code from the mail').fill(await mailedCode(ADA.email))
    await page.getByRole('button', { name: 'Sign in with the code' }).click()
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    expect((await session(page))?.user.email).toBe(ADA.email)
  })

  it('asks a person with two-factor on for the second step after the link', async () => {
    const page = await newPage()
    await ask(page, GRACE, 'Email me a link')
    await page.getByText(/a sign-in link is on its way/).waitFor()
    await page.goto((await mailTo(GRACE, 'Your sign-in link')).links[0] ?? '')
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/two-factor')
    expect(await session(page)).toBeNull()
  })

  it('asks a person with two-factor on for the second step after the code, then lets them in', async () => {
    const page = await newPage()
    await ask(page, GRACE, 'Email me a code')
    await page.getByLabel('Code from the mail').fill(await mailedCode(GRACE))
    await page.getByRole('button', { name: 'Sign in with the code' }).click()
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor()
    expect(await session(page)).toBeNull()
    await checkPage(page, 'second-step')
    // The step used to turn the factor on is spent: the next step's code (one step of drift) is not.
    await page.getByLabel('Code from your authenticator app').fill(codeAt(totpURI, new Date(), 1))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    expect((await session(page))?.user.email).toBe(GRACE)
  })
})
