/// SAML sign-in on plain http in a real Chromium, where the relay cookie is SameSite=Lax (None needs
/// Secure, so https). The IdP (samlify on loopback) is named `localhost` and Tessera `127.0.0.1`: two
/// sites, so Chromium leaves the Lax cookie home on the IdP's auto-submitted POST to the ACS. Tessera
/// answers that POST once with a page that posts the same fields again from its own origin, which
/// carries the cookie (command-api/sso-saml/saml-relay-bounce.ts). The journey starts at the
/// portal's "Sign in with SSO" and ends signed in on the account page; the ACS requests are recorded
/// as Chromium sent them, so the test sees the first come cross-site without the cookie. The bounce
/// page is checked with axe and pictured at 1280 and 375 px (its second POST stopped, so it stays);
/// with scripts off, its Continue button finishes the sign-in. Last, a callbackURL on another trusted
/// origin: the redirect after the bounce's POST must be allowed to go there.

import { createServer, type Server } from 'node:http'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BOUNCE_FIELD } from '../../command-api/sso-saml/saml-relay-bounce.js'
import { webBrowser } from '../support/oidc-provider.js'
import { startTestIdp, type TestIdp, testKeyPair } from '../support/saml-idp.js'
import { startTessera, type TestTessera } from '../support/tessera.js'
import { checkBothSchemes, ensurePortalBuilt, freePort, hasChromium, launchChromium } from './support.js'

const PASSWORD = 'correct horse battery'
const ACS_PATH = '/api/auth/sso/saml2/sp/acs/acme-saml'
const RELAY_COOKIE = 'better-auth.relay_state='

/** One POST at the ACS as Chromium sent it (headers as they left the network stack, cookies included). */
type AcsPost = { site: string; origin: string; relayCookie: boolean; bounced: boolean }

describe.skipIf(!hasChromium)('SAML sign-in on plain http in Chromium: the relay bounce', () => {
  let idp: TestIdp
  let tessera: TestTessera
  let browser: Browser
  let baseUrl: string
  let spMetadataXml = ''
  /** An application on another origin of the same site (another port), trusted as a callbackURL. */
  let app: Server
  let appOrigin: string

  /** The owner registers Acme's SAML provider over the API; the IdP learns our SP metadata. */
  const registerAcme = async () => {
    const owner = webBrowser()
    const post = async (path: string, json: unknown) => {
      const answer = await owner.request('POST', `${baseUrl}/api/auth${path}`, { json })
      expect(answer.status, answer.body).toBe(200)
      return JSON.parse(answer.body) as Record<string, unknown>
    }
    await post('/sign-up/email', { name: 'Owner', email: 'owner@example.com', password: PASSWORD })
    const organization = await post('/organization/create', { name: 'Acme', slug: 'acme' })
    await post('/sso/register', {
      providerId: 'acme-saml',
      issuer: `${baseUrl}/sp/acme`,
      domain: 'acme.test',
      organizationId: organization.id,
      samlConfig: { entryPoint: idp.ssoUrl, cert: idp.cert, idpMetadata: { entityID: idp.entityID } },
    })
    const metadata = await fetch(`${baseUrl}/api/auth/sso/saml2/sp/metadata?providerId=acme-saml`)
    spMetadataXml = await metadata.text()
  }

  const newContext = async (options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> => {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1280, height: 800 },
      ...options,
    })
    context.setDefaultTimeout(15_000)
    return context
  }

  /** Records every POST the context's pages send to the ACS; the answer awaits their headers. */
  const recordAcsPosts = (context: BrowserContext): (() => Promise<AcsPost[]>) => {
    const posts: Promise<AcsPost>[] = []
    context.on('request', (request) => {
      if (request.method() !== 'POST' || request.url() !== `${baseUrl}${ACS_PATH}`) return
      const bounced = new URLSearchParams(request.postData() ?? '').get(BOUNCE_FIELD) === '1'
      posts.push(
        request.allHeaders().then((headers) => ({
          site: headers['sec-fetch-site'] ?? '',
          origin: headers.origin ?? '',
          relayCookie: (headers.cookie ?? '').includes(RELAY_COOKIE),
          bounced,
        })),
      )
    })
    return () => Promise.all(posts)
  }

  /** From the portal's sign-in page through "Sign in with SSO" to the IdP, whose page posts on. */
  const signInWithSso = async (page: Page, email: string) => {
    idp.answerAs({ email, givenName: 'Ada', surname: 'Lovelace' })
    await page.goto('/sign-in')
    await page.getByRole('button', { name: 'Sign in with SSO' }).click()
    await page.getByLabel('Work email or organization').fill(email)
    await page.getByRole('button', { name: 'Continue with SSO' }).click()
  }

  /** Starts a sign-in over the API in the context's cookie jar (as an application's page would) and opens the IdP. */
  const startOverApi = async (context: BrowserContext, email: string, callbackURL: string) => {
    idp.answerAs({ email, givenName: 'Ada', surname: 'Lovelace' })
    const started = await context.request.post('/api/auth/sign-in/sso', { data: { email, callbackURL } })
    expect(started.status(), await started.text()).toBe(200)
    const page = await context.newPage()
    await page.goto(((await started.json()) as { url: string }).url)
    return page
  }

  const expectSignedIn = async (page: Page, at: string, email: string) => {
    await page.waitForURL(at)
    const session = await (await page.request.get('/api/auth/get-session')).json()
    expect(session?.user).toMatchObject({ email, name: 'Ada Lovelace' })
  }
  const expectSignedInOnAccount = (page: Page, email: string) =>
    expectSignedIn(page, `${baseUrl}/account`, email)

  beforeAll(async () => {
    const portalDir = ensurePortalBuilt()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    app = createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><html lang="en"><title>App</title><h1>App</h1></html>'),
    )
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    appOrigin = `http://127.0.0.1:${(app.address() as { port: number }).port}`
    idp = await startTestIdp(() => spMetadataXml, testKeyPair(), { host: 'localhost', autoSubmit: true })
    tessera = await startTessera({
      listen: true,
      portalDir,
      env: { PORT: String(port), BASE_URL: baseUrl, TRUSTED_ORIGINS: appOrigin },
    })
    await registerAcme()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await tessera?.cleanup()
    await idp?.close()
    await new Promise((resolve) => app?.close(resolve))
  })

  it('signs in from the portal: the IdP’s cross-site POST comes without the Lax cookie, the bounce with it', async () => {
    const context = await newContext()
    const acsPosts = recordAcsPosts(context)
    const page = await context.newPage()
    await signInWithSso(page, 'ada@acme.test')
    await expectSignedInOnAccount(page, 'ada@acme.test')
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor()
    expect(await acsPosts()).toEqual([
      { site: 'cross-site', origin: new URL(idp.ssoUrl).origin, relayCookie: false, bounced: false },
      // The page's referrer policy (no-referrer) makes its Origin "null"; the site is still ours.
      { site: 'same-origin', origin: 'null', relayCookie: true, bounced: true },
    ])
    // The relay cookie is spent with the flow.
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('better-auth.relay_state')
    await context.close()
  })

  it('shows a page that says what happens while it posts again, in both schemes and at both widths', async () => {
    const context = await newContext()
    const page = await context.newPage()
    // The page posts again at once; that second POST is answered 204 here, which leaves a browser on
    // the page it came from, so the page stays to be looked at (a held request would keep the page
    // "navigating" and every look at it waiting; an aborted one shows the browser's error page).
    await page.route(`${baseUrl}${ACS_PATH}`, (route) =>
      new URLSearchParams(route.request().postData() ?? '').get(BOUNCE_FIELD) === '1'
        ? route.fulfill({ status: 204 })
        : route.continue(),
    )
    await signInWithSso(page, 'grace@acme.test')
    await page.getByRole('heading', { name: 'Signing you in…', level: 1 }).waitFor()
    expect(page.url()).toBe(`${baseUrl}${ACS_PATH}`)
    expect(await checkBothSchemes(page, 'saml-relay-bounce')).toEqual({ axe: {}, overflow: {} })
    await context.close()
  })

  it('without scripts, both pages offer Continue and the sign-in still ends on the account', async () => {
    const context = await newContext({ javaScriptEnabled: false })
    // The portal needs scripts: the sign-in starts over the API, in this browser's cookie jar.
    const page = await startOverApi(context, 'joan@acme.test', '/account')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(`${baseUrl}${ACS_PATH}`)
    // axe and the overflow check run scripts in the page: with scripts off only the button is looked for.
    await page.getByRole('button', { name: 'Continue' }).waitFor()
    await page.getByRole('button', { name: 'Continue' }).click()
    await expectSignedInOnAccount(page, 'joan@acme.test')
    await context.close()
  })

  it('goes on after the bounce to a callbackURL on another trusted origin', async () => {
    const context = await newContext()
    const acsPosts = recordAcsPosts(context)
    const page = await startOverApi(context, 'mary@acme.test', `${appOrigin}/dashboard`)
    await expectSignedIn(page, `${appOrigin}/dashboard`, 'mary@acme.test')
    await page.getByRole('heading', { name: 'App' }).waitFor()
    expect((await acsPosts()).map((post) => [post.relayCookie, post.bounced])).toEqual([
      [false, false],
      [true, true],
    ])
    await context.close()
  })
})
