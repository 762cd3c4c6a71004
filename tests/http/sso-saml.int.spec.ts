/// Enterprise single sign-on through a real SAML 2.0 identity provider (samlify in its IdP role on
/// loopback, its key pair made by openssl for this run): an owner registers the provider for their
/// organization, a person of its domain signs in SP-initiated (`/sign-in/sso` by email → the IdP →
/// its form posted cross-site to the ACS) and is provisioned just in time with a membership and a
/// session. Refusals: an unusable samlConfig, a replayed answer, a tampered signature, an answer
/// posted from another browser. The SP metadata is served for the IdP's administrator.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findMember } from '../../projections/organizations/organizations.repository.js'
import { freePort, type WebBrowser, webBrowser } from '../support/oidc-provider.js'
import {
  type AnswerOverrides,
  followToIdpForm,
  rewrite,
  startTestIdp,
  type TestIdp,
  testKeyPair,
} from '../support/saml-idp.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'

describe('single sign-on through an organization SAML identity provider (pglite)', () => {
  let idp: TestIdp
  let tessera: TestTessera
  let base: string
  let owner: WebBrowser
  let organizationId: string
  let spMetadataXml = ''

  const api = (path: string) => `${base}/api/auth${path}`
  const post = (browser: WebBrowser, path: string, json: unknown) =>
    browser.request('POST', api(path), { json })
  const body = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, unknown>
  const session = async (browser: WebBrowser) =>
    JSON.parse((await browser.request('GET', api('/get-session'))).body) as {
      user: { id: string; email: string; name: string }
    } | null
  const samlConfig = (overrides: Record<string, unknown> = {}) => ({
    entryPoint: idp.ssoUrl,
    cert: idp.cert,
    idpMetadata: { entityID: idp.entityID },
    wantAssertionsSigned: true,
    ...overrides,
  })

  /** `/sign-in/sso` by email, then the IdP's page: the form it would have the browser post. */
  const startAtIdp = async (browser: WebBrowser, email: string, overrides: AnswerOverrides = {}) => {
    idp.answerAs({ email, givenName: 'Ada', surname: 'Lovelace' }, overrides)
    const started = await post(browser, '/sign-in/sso', { email, callbackURL: '/dashboard' })
    expect(started.status, started.body).toBe(200)
    const { url, redirect } = body(started) as { url: string; redirect: boolean }
    expect([redirect, url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)]).toEqual([true, true])
    return followToIdpForm(url)
  }

  /** The IdP's form as a browser posts it: cross-site (the IdP's Origin), with its cookies for us. */
  const postToAcs = async (
    browser: WebBrowser,
    form: { action: string; samlResponse: string; relayState: string | null },
    encoding: 'form' | 'json' = 'form',
  ) => {
    const fields = {
      SAMLResponse: form.samlResponse,
      ...(form.relayState ? { RelayState: form.relayState } : {}),
    }
    const cookie = browser.jarOf(form.action).header()
    const response = await fetch(form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
        origin: new URL(idp.ssoUrl).origin,
        'sec-fetch-site': 'cross-site',
        ...(cookie ? { cookie } : {}),
      },
      body: encoding === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    })
    browser.jarOf(form.action).store(response.headers.getSetCookie())
    // Without the relay cookie the ACS answers a page that posts the same fields again from our
    // origin (saml-relay-bounce.ts); a browser submits it, same-site, with whatever cookie it holds.
    if (response.status === 200) return bounceAgain(browser, form.action, await response.text())
    const location = response.headers.get('location') ?? ''
    return { status: response.status, location, params: new URL(location, base).searchParams }
  }
  const bounceAgain = async (browser: WebBrowser, action: string, html: string) => {
    const fields = Object.fromEntries(
      [...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name, value ?? '']),
    )
    const again = await browser.request('POST', action, { form: fields as Record<string, string> })
    const location = again.location ?? ''
    return { status: again.status, location, params: new URL(location, base).searchParams }
  }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    idp = await startTestIdp(() => spMetadataXml, testKeyPair())
    tessera = await startTessera({
      listen: true,
      // The IdP's origin is NOT trusted: its cross-site POST to the ACS must pass all the same.
      env: { PORT: String(port), BASE_URL: base },
    })
    owner = webBrowser()
    const signedUp = await post(owner, '/sign-up/email', {
      name: 'Owner',
      email: 'owner@example.com',
      password: PASSWORD,
    })
    expect(signedUp.status, signedUp.body).toBe(200)
    const created = await post(owner, '/organization/create', { name: 'Acme', slug: 'acme' })
    expect(created.status, created.body).toBe(200)
    organizationId = (body(created) as { id: string }).id
  })
  afterAll(async () => {
    await tessera?.cleanup()
    await idp?.close()
  })

  it('refuses a samlConfig that names no IdP signing certificate, in the plugin’s words', async () => {
    const answer = await post(owner, '/sso/register', {
      providerId: 'no-cert',
      issuer: `${base}/sp/no-cert`,
      domain: 'nocert.test',
      organizationId,
      samlConfig: { entryPoint: idp.ssoUrl, idpMetadata: { entityID: idp.entityID } },
    })
    expect([answer.status, body(answer).code]).toEqual([400, 'SAML_CONFIG_INVALID'])
    expect(body(answer).message).toBe(
      'samlConfig requires either a signing certificate (cert or idpMetadata.cert) or an idpMetadata.metadata XML document.',
    )
  })

  it('registers the provider and serves its SP metadata for the IdP', async () => {
    const answer = await post(owner, '/sso/register', {
      providerId: 'acme-saml',
      issuer: `${base}/sp/acme`,
      domain: 'acme.test',
      organizationId,
      samlConfig: samlConfig(),
    })
    expect(answer.status, answer.body).toBe(200)
    const metadata = await fetch(api('/sso/saml2/sp/metadata?providerId=acme-saml'))
    expect(metadata.status).toBe(200)
    expect(metadata.headers.get('content-type')).toContain('application/xml')
    spMetadataXml = await metadata.text()
    expect(spMetadataXml).toContain(`entityID="${base}/sp/acme"`)
    expect(spMetadataXml).toContain(`Location="${api('/sso/saml2/sp/acs/acme-saml')}"`)
    const unknown = await fetch(api('/sso/saml2/sp/metadata?providerId=nobody'))
    expect(unknown.status).toBe(404)
  })

  it('signs a person in through the IdP: just-in-time account, membership, session, activity', async () => {
    const browser = webBrowser()
    const form = await startAtIdp(browser, 'ada@acme.test')
    expect(form.action).toBe(api('/sso/saml2/sp/acs/acme-saml'))
    const landed = await postToAcs(browser, form)
    expect([landed.status, landed.location]).toEqual([302, '/dashboard'])
    const signedIn = await session(browser)
    expect(signedIn?.user).toMatchObject({ email: 'ada@acme.test', name: 'Ada Lovelace' })
    const userId = signedIn?.user.id ?? ''
    expect((await findMember(tessera.ctx.db, organizationId, userId))?.role).toBe('member')
    const activity = JSON.parse((await browser.request('GET', api('/activity'))).body)
    expect(JSON.stringify(activity)).toContain('sso:acme-saml')

    // The same answer posted again: its relay state is spent and its assertion id is taken.
    const replayed = await postToAcs(webBrowser(), form)
    expect(replayed.status).toBe(302)
    expect(replayed.params.get('error')).toBe('invalid_state')
    const again = await postToAcs(browser, form)
    expect(again.params.get('error')).toBe('invalid_state')
    // A GET at the ACS (the plugin's post-sign-in hop): on to a trusted RelayState, never elsewhere.
    const acs = api('/sso/saml2/sp/acs/acme-saml')
    const onward = await browser.request('GET', `${acs}?RelayState=${encodeURIComponent('/settings')}`)
    expect([onward.status, onward.location]).toEqual([302, '/settings'])
    const away = await browser.request('GET', `${acs}?RelayState=${encodeURIComponent('https://evil.test/')}`)
    expect(away.location).toBe(base)
    const signedOut = await webBrowser().request('GET', `${acs}?RelayState=%2Fsettings`)
    expect(signedOut.location).toBe(`${base}/error?error=invalid_request`)

    const claims = await tessera.ctx.db
      .selectFrom('tessera_saml_assertion_claims' as never)
      .selectAll()
      .execute()
    expect(claims.length).toBeGreaterThanOrEqual(1)
  })

  it('on plain http, where the Lax relay cookie stays behind on the IdP’s POST, bounces once from our origin and signs in', async () => {
    const browser = webBrowser()
    const form = await startAtIdp(browser, 'joan@acme.test')
    // What a browser holds after `/sign-in/sso` on http: a Lax cookie (None needs Secure, i.e. https).
    const relay = browser.jarOf(form.action).header()
    expect(relay).toContain('better-auth.relay_state=')
    expect(relay).not.toContain('__Secure-')
    // The IdP's cross-site POST, as a browser sends it: without that Lax cookie.
    const first = await fetch(form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(idp.ssoUrl).origin,
        'sec-fetch-site': 'cross-site',
      },
      body: new URLSearchParams({ SAMLResponse: form.samlResponse, RelayState: form.relayState ?? '' }),
    })
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toContain('text/html')
    // Scripts and styles only by their hashes; no form-action, which would stop the redirect after
    // the page's POST when the callbackURL is another trusted origin.
    expect(first.headers.get('content-security-policy')).toMatch(
      /script-src 'sha256-[^']+'; style-src 'sha256-/,
    )
    expect(first.headers.get('content-security-policy')).not.toContain('form-action')
    expect(await session(browser)).toBeNull()
    // The page posts the same fields again from our origin: same-site, so the cookie comes along.
    const landed = await bounceAgain(browser, form.action, await first.text())
    expect([landed.status, landed.location]).toEqual([302, '/dashboard'])
    expect((await session(browser))?.user.email).toBe('joan@acme.test')
  })

  it('signs in through a provider registered with nothing but the IdP metadata XML', async () => {
    const registered = await post(owner, '/sso/register', {
      providerId: 'beta-saml',
      issuer: `${base}/sp/beta`,
      domain: 'beta.test',
      organizationId,
      samlConfig: { entryPoint: idp.ssoUrl, idpMetadata: { metadata: idp.metadata } },
    })
    expect(registered.status, registered.body).toBe(200)
    const previous = spMetadataXml
    spMetadataXml = await (await fetch(api('/sso/saml2/sp/metadata?providerId=beta-saml'))).text()
    try {
      const browser = webBrowser()
      const form = await startAtIdp(browser, 'dan@beta.test')
      expect(form.action).toBe(api('/sso/saml2/sp/acs/beta-saml'))
      // Posted as JSON this time: the plugin's ACS takes both encodings.
      expect((await postToAcs(browser, form, 'json')).location).toBe('/dashboard')
      expect((await session(browser))?.user.email).toBe('dan@beta.test')
    } finally {
      spMetadataXml = previous
    }
  })

  it('refuses an answer whose signed assertion was edited, and signs nobody in', async () => {
    const browser = webBrowser()
    const form = await startAtIdp(browser, 'bob@acme.test')
    const tampered = {
      ...form,
      samlResponse: rewrite(form.samlResponse, (xml) => xml.replaceAll('bob@acme.test', 'owner@example.com')),
    }
    const refused = await postToAcs(browser, tampered)
    expect(refused.status).toBe(302)
    expect(refused.location.startsWith('/dashboard?')).toBe(true)
    expect(refused.params.get('error')).toBe('invalid_saml_response')
    expect(refused.params.get('error_description')).toBe('SAML response signature is invalid')
    expect(await session(browser)).toBeNull()
  })

  it('refuses an assertion for another audience, and one whose window closed beyond the skew', async () => {
    const browser = webBrowser()
    const elsewhere = await postToAcs(
      browser,
      await startAtIdp(browser, 'carol@acme.test', { Audience: 'https://other.example/sp' }),
    )
    expect(elsewhere.params.get('error')).toBe('invalid_saml_response')
    expect(elsewhere.params.get('error_description')).toBe(
      'SAML assertion audience does not match this Service Provider',
    )
    const past = new Date(Date.now() - 2 * 60_000).toISOString()
    const expired = await postToAcs(
      browser,
      await startAtIdp(browser, 'carol@acme.test', {
        ConditionsNotOnOrAfter: past,
        SubjectConfirmationDataNotOnOrAfter: past,
      }),
    )
    expect(expired.params.get('error_description')).toBe('SAML assertion has expired')
    expect(await session(browser)).toBeNull()
  })

  it('refuses an answer brought by another browser than the one that started', async () => {
    const victim = webBrowser()
    const form = await startAtIdp(victim, 'eve@acme.test')
    const elsewhere = await postToAcs(webBrowser(), form)
    expect(elsewhere.params.get('error')).toBe('invalid_state')
    const withoutState = await postToAcs(victim, { ...form, relayState: null })
    expect(withoutState.params.get('error')).toBe('invalid_state')
  })
})
