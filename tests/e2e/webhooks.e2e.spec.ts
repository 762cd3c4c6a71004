/// The webhook pages in a real Chromium against Tessera, with a real receiver on loopback (allowed by
/// `webhooks.allowAddresses`): an organization's owner adds an endpoint in its settings (the secret
/// shown once), a member joins and the receiver gets `member.created`, verified with the
/// `standardwebhooks` package and the secret the page showed; the attempts list shows it; "Resend"
/// sends that one message again and "Replay from here" sends it and every later one, each with the
/// same `webhook-id`. Then the same person, made operator, does it for a service-wide endpoint at
/// /admin/webhooks. Every page is checked with axe and pictured at 1280 and 375 px, light and dark.

import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { signUp as signUpByApi } from '../support/organizations.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { type Receiver, startReceiver } from '../support/webhook-receiver.js'
import { announced } from './page-helpers.js'
import {
  checkBothSchemes,
  ensurePortalBuilt,
  freePort,
  hasChromium,
  launchChromium,
  screenshot,
} from './support.js'

const SERVER_KEY = 'webhooks-e2e-key-0123456789abcdef012345'
const server = { 'x-tessera-server-key': SERVER_KEY }
const OWNER = { name: 'Wanda Webhook', email: 'wanda@example.com', password: 'signed-payloads-2026' }

const checkPage = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle')
  expect(await checkBothSchemes(page, `webhooks-${name}`), `axe and overflow on ${name}`).toEqual({
    axe: {},
    overflow: {},
  })
}

/** Adds an endpoint for one event type through the form; returns the secret the page shows once. */
const addEndpoint = async (page: Page, url: string, eventType: string): Promise<string> => {
  await page.getByLabel('Endpoint address').fill(url)
  await page.getByRole('checkbox', { name: eventType, exact: true }).check()
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  const secret = page.locator('code.webhook-secret')
  await secret.waitFor()
  return (await secret.textContent()) ?? ''
}

/** The endpoint's attempts, opened; the first row once it names `eventType`. */
const openAttempts = async (page: Page, url: string, eventType: string): Promise<Locator> => {
  const item = page.getByRole('list', { name: 'Webhook endpoints' }).getByRole('listitem', { name: url })
  await item.getByRole('button', { name: 'Delivery attempts' }).click()
  const row = item.getByRole('row').filter({ hasText: eventType }).first()
  await expect
    .poll(
      async () => {
        if (await row.isVisible()) return row.textContent()
        await item.getByRole('button', { name: 'Refresh' }).click()
        return ''
      },
      { timeout: 20_000 },
    )
    .toContain('Delivered')
  return item
}

describe.skipIf(!hasChromium)('webhook pages in Chromium', { timeout: 300_000 }, () => {
  let tessera: TestTessera
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let receiver: Receiver
  let baseUrl: string

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    receiver = await startReceiver()
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, SERVER_KEYS: `ops=${SERVER_KEY}` },
      features: { webhooks: { allowAddresses: ['127.0.0.0/8'] } },
    })
    browser = await launchChromium()
    context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(15_000)
    page = await context.newPage()
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await tessera?.cleanup()
    await receiver?.close()
  })

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page)
      await screenshot(page, `failed-webhooks-${task.name.replace(/\W+/g, '-')}`)
  })

  it('an owner adds an endpoint, gets a signed delivery, resends it and replays from it', async () => {
    await page.goto('/sign-up')
    await page.getByLabel('Name', { exact: true }).fill(OWNER.name)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/check-email')
    const created = await page.request.post('/api/auth/organization/create', {
      data: { name: 'Hook Works', slug: 'hook-works' },
      headers: { origin: baseUrl },
    })
    const org = (await created.json()) as { id: string }
    await page.goto(`/account/organizations/${org.id}/settings`)
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor()

    const secret = await addEndpoint(page, receiver.url, 'member.created')
    expect(secret).toMatch(/^whsec_/)
    await checkPage(page, 'organization-secret')

    const joiner = await signUpByApi(tessera, 'june')
    const added = await tessera.api.request(
      'POST',
      '/organization/add-member',
      { userId: joiner.userId, role: 'member', organizationId: org.id },
      server,
    )
    expect(added.status, added.body).toBe(200)
    const [first] = await receiver.until((all) => all.length >= 1)
    const verified = new Webhook(secret).verify(first?.body ?? '', first?.headers as Record<string, string>)
    expect(verified).toMatchObject({ type: 'member.created', data: { organizationId: org.id } })
    const messageId = first?.headers['webhook-id']

    const item = await openAttempts(page, receiver.url, 'member.created')
    await checkPage(page, 'organization-attempts')
    await item.getByRole('button', { name: 'Resend' }).first().click()
    await announced(item, 'status', 'on its way again')
    await receiver.until((all) => all.length >= 2)
    await item.getByRole('button', { name: 'Replay from here' }).first().click()
    await announced(item, 'status', 'start again from this member.created event')
    const all = await receiver.until((received) => received.length >= 3)
    expect(all.map((one) => one.headers['webhook-id'])).toEqual([messageId, messageId, messageId])
    await item.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => item.getByRole('table').textContent()).toContain('resent')
  })

  it('an operator does the same for a service-wide endpoint at /admin/webhooks', async () => {
    const session = (await (await page.request.get('/api/auth/get-session')).json()) as {
      user: { id: string }
    }
    const promoted = await tessera.api.request(
      'POST',
      '/admin/set-role',
      { userId: session.user.id, role: 'admin' },
      server,
    )
    expect(promoted.status).toBe(200)
    await page.goto('/admin/webhooks')
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()
    const url = `${receiver.url}?service-wide`
    const secret = await addEndpoint(page, url, 'user.created')
    const before = receiver.received.length
    const kim = await signUpByApi(tessera, 'kim')
    const [delivery] = (await receiver.until((all) => all.length > before)).slice(before)
    const verified = new Webhook(secret).verify(
      delivery?.body ?? '',
      delivery?.headers as Record<string, string>,
    )
    expect(verified).toMatchObject({ type: 'user.created', data: { userId: kim.userId } })
    await checkPage(page, 'console-secret')

    const item = await openAttempts(page, url, 'user.created')
    await item.getByRole('button', { name: 'Resend' }).first().click()
    await announced(item, 'status', 'on its way again')
    await item.getByRole('button', { name: 'Replay from here' }).first().click()
    await announced(item, 'status', 'start again from this user.created event')
    const again = (await receiver.until((all) => all.length >= before + 3)).slice(before)
    expect(again.map((one) => one.headers['webhook-id'])).toEqual([
      delivery?.headers['webhook-id'],
      delivery?.headers['webhook-id'],
      delivery?.headers['webhook-id'],
    ])
    await checkPage(page, 'console-attempts')
  })
})
