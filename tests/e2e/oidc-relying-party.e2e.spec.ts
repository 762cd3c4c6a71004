/// Tessera as an OpenID provider in a real Chromium (issue 35): a tiny relying party (a loopback
/// HTTP server using `openid-client`) sends the browser to /api/auth/oauth2/authorize; the person
/// signs in on the portal's /oauth/login, allows the application on /oauth/consent, and lands back
/// on the relying party, which exchanges the code and shows who signed in. The login and consent
/// pages are checked by axe and pictured at 1280 and 375 px in both colour schemes. A second person
/// signs in with a mailed code instead of a password, and the authorization goes on just the same.
/// A third, on the consent page, sees whose account it names and switches to another one first.

import { createServer, type Server } from 'node:http'
import * as oidc from 'openid-client'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { checkBothSchemes, ensurePortalBuilt, freePort, hasChromium, launchChromium } from './support.js'

const SERVER_KEY = 'server-key-for-the-rp-e2e-0123456789'
const PASSWORD = 'analytical-engine-1843'

/** The relying party: `/` starts a sign-in, `/callback` finishes it and greets the person. */
const relyingParty = (config: () => oidc.Configuration, base: string): Server => {
  const pending = new Map<string, string>()
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', base)
    const run = async () => {
      if (url.pathname === '/') {
        const verifier = oidc.randomPKCECodeVerifier()
        const state = oidc.randomState()
        pending.set(state, verifier)
        const to = oidc.buildAuthorizationUrl(config(), {
          redirect_uri: `${base}/callback`,
          scope: 'openid profile email',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
        })
        response.writeHead(302, { location: to.toString() }).end()
        return
      }
      const state = url.searchParams.get('state') ?? ''
      const tokens = await oidc.authorizationCodeGrant(config(), url, {
        pkceCodeVerifier: pending.get(state) ?? '',
        expectedState: state,
      })
      const claims = tokens.claims()
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><title>Notes</title><h1>Hello ${claims?.name}</h1><p>${claims?.email}</p>`)
    }
    run().catch((error: unknown) => response.writeHead(500).end(String(error)))
  })
}

describe.skipIf(!hasChromium)('an application signs a person in through Tessera, in Chromium', () => {
  let tessera: TestTessera
  let browser: Browser
  let page: Page
  let rp: Server
  let rpBase: string
  let sink: SmtpSink

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    sink = await startSmtpSink()
    const port = await freePort()
    const baseUrl = `http://127.0.0.1:${port}`
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, SERVER_KEYS: `ops=${SERVER_KEY}`, SMTP_URL: sink.url },
      features: { oauthProvider: {} },
    })
    const rpPort = await freePort()
    rpBase = `http://127.0.0.1:${rpPort}`
    const created = await tessera.api.request(
      'POST',
      '/admin/oauth2/create-client',
      { client_name: 'Notes', redirect_uris: [`${rpBase}/callback`] },
      { 'x-tessera-server-key': SERVER_KEY },
    )
    expect(created.status, created.body).toBe(201)
    const client = created.json as { client_id: string; client_secret: string }
    const config = await oidc.discovery(
      new URL(`${baseUrl}/api/auth`),
      client.client_id,
      client.client_secret,
      undefined,
      {
        execute: [oidc.allowInsecureRequests],
      },
    )
    rp = relyingParty(() => config, rpBase)
    await new Promise<void>((resolve) => rp.listen(rpPort, '127.0.0.1', resolve))
    const signUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: PASSWORD,
    })
    expect(signUp.status, signUp.body).toBe(200)
    browser = await launchChromium()
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(30_000)
    page = await context.newPage()
  }, 300_000)
  afterAll(async () => {
    await browser?.close()
    rp?.close()
    await tessera?.cleanup()
    await sink?.close()
  })

  it('goes RP → authorize → login → consent → back to the RP with tokens', async () => {
    await page.goto(`${rpBase}/`)
    await page.waitForURL('**/oauth/login?**')
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor()
    expect(await checkBothSchemes(page, 'oauth-login')).toEqual({ axe: {}, overflow: {} })
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()

    await page.waitForURL('**/oauth/consent?**')
    await page.getByRole('heading', { name: 'Notes wants to use your account' }).waitFor()
    expect(await checkBothSchemes(page, 'oauth-consent')).toEqual({ axe: {}, overflow: {} })
    await page.getByRole('button', { name: 'Allow' }).click()

    await page.waitForURL(`${rpBase}/callback?**`)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Hello Ada Lovelace')
    expect(await page.getByText('ada@example.com').count()).toBe(1)
  }, 240_000)

  it('goes on after a mailed code instead of a password', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(30_000)
    const fresh = await context.newPage()
    await fresh.goto(`${rpBase}/`)
    await fresh.waitForURL('**/oauth/login?**')
    await fresh.getByLabel('Email').fill('grace@example.com')
    await fresh.getByRole('button', { name: 'Email me a code' }).click()
    const mail = await sink.waitForMail((m) => m.to.includes('grace@example.com'), 15_000)
    const code = /Your code is (\d+)/.exec(mail.text)?.[1] ?? ''
    await fresh.getByLabel('Code from the mail').fill(code)
    await fresh.getByRole('button', { name: 'Sign in with the code' }).click()

    await fresh.waitForURL('**/oauth/consent?**')
    await fresh.getByRole('button', { name: 'Allow' }).click()
    await fresh.waitForURL(`${rpBase}/callback?**`)
    expect(await fresh.getByText('grace@example.com').count()).toBe(1)
    await context.close()
  }, 240_000)

  it('names the signed-in account on the consent page and lets another one sign in instead', async () => {
    const signUp = await tessera.api.request('POST', '/sign-up/email', {
      name: 'Charles Babbage',
      email: 'charles@example.com',
      password: PASSWORD,
    })
    expect(signUp.status, signUp.body).toBe(200)
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    context.setDefaultTimeout(30_000)
    const fresh = await context.newPage()
    await fresh.goto(`${rpBase}/`)
    await fresh.waitForURL('**/oauth/login?**')
    await fresh.getByLabel('Email').fill('charles@example.com')
    await fresh.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await fresh.getByRole('button', { name: 'Sign in', exact: true }).click()

    await fresh.waitForURL('**/oauth/consent?**')
    const account = fresh.getByText(/You are signed in as/)
    expect(await account.textContent()).toBe(
      'You are signed in as Charles Babbage (charles@example.com). Use another account',
    )
    await fresh.getByRole('link', { name: 'Use another account' }).click()
    await fresh.waitForURL('**/oauth/login?**')
    await fresh.getByLabel('Email').fill('ada@example.com')
    await fresh.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await fresh.getByRole('button', { name: 'Sign in', exact: true }).click()

    // Ada allowed Notes in the first case, so the same request goes straight back to it, as her.
    await fresh.waitForURL(`${rpBase}/callback?**`)
    expect(await fresh.getByRole('heading', { level: 1 }).textContent()).toBe('Hello Ada Lovelace')
    await context.close()
  }, 240_000)
})
