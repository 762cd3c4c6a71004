/// Signed AuthnRequests (`samlConfig.authnRequestsSigned` with `spMetadata.privateKey`, the plugin's
/// names): the HTTP-Redirect URL Tessera sends the browser to carries `SigAlg` and `Signature` over
/// the deflated request and the RelayState, and a real SAML IdP that wants signed requests (samlify
/// in its IdP role on loopback) verifies them against the certificate in the SP metadata Tessera
/// serves, then signs the person in. The same IdP refuses an unsigned request and one whose query
/// was changed on the way; a provider set to sign without a key is refused in the plugin's words.

import * as samlify from 'samlify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, type WebBrowser, webBrowser } from '../support/oidc-provider.js'
import { startTestIdp, type TestIdp, type TestKeyPair, testKeyPair } from '../support/saml-idp.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'

describe('signed SAML AuthnRequests (pglite, a loopback IdP that wants them signed)', () => {
  let strictIdp: TestIdp
  let tessera: TestTessera
  let base: string
  let owner: WebBrowser
  let organizationId: string
  let sp: TestKeyPair
  /** The SP metadata the strict IdP's administrator loaded: Tessera's, read from its metadata route. */
  let loadedSpMetadata = ''

  const api = (path: string) => `${base}/api/auth${path}`
  const post = (browser: WebBrowser, path: string, json: unknown) =>
    browser.request('POST', api(path), { json })
  const body = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, unknown>

  /** Our SP metadata with its signing certificate, as an operator configures `spMetadata.metadata`. */
  const spMetadataWithCert = (providerId: string) =>
    samlify
      .SPMetadata({
        entityID: `${base}/sp/${providerId}`,
        assertionConsumerService: [
          { Binding: POST_BINDING, Location: api(`/sso/saml2/sp/acs/${providerId}`) },
        ],
        authnRequestsSigned: true,
        wantAssertionsSigned: true,
        signingCert: sp.cert,
      })
      .getMetadata()

  const register = async (providerId: string, domain: string, samlConfig: Record<string, unknown>) => {
    const answer = await post(owner, '/sso/register', {
      providerId,
      issuer: `${base}/sp/${providerId}`,
      domain,
      organizationId,
      samlConfig: {
        entryPoint: strictIdp.ssoUrl,
        cert: strictIdp.cert,
        idpMetadata: { entityID: strictIdp.entityID },
        wantAssertionsSigned: true,
        ...samlConfig,
      },
    })
    expect(answer.status, answer.body).toBe(200)
    const metadata = await owner.request('GET', api(`/sso/saml2/sp/metadata?providerId=${providerId}`))
    expect(metadata.status).toBe(200)
    return metadata.body
  }

  const startSignIn = async (browser: WebBrowser, email: string) => {
    strictIdp.answerAs({ email, givenName: 'Grace', surname: 'Hopper' })
    const started = await post(browser, '/sign-in/sso', { email, callbackURL: '/dashboard' })
    return { status: started.status, json: body(started) }
  }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    sp = testKeyPair('tessera-sp')
    strictIdp = await startTestIdp(() => loadedSpMetadata, testKeyPair(), { wantAuthnRequestsSigned: true })
    tessera = await startTessera({ listen: true, env: { PORT: String(port), BASE_URL: base } })
    owner = webBrowser()
    const signedUp = await post(owner, '/sign-up/email', {
      name: 'Owner',
      email: 'owner@example.com',
      password: PASSWORD,
    })
    expect(signedUp.status, signedUp.body).toBe(200)
    const created = await post(owner, '/organization/create', { name: 'Initech', slug: 'initech' })
    organizationId = (body(created) as { id: string }).id
  }, 240_000)
  afterAll(async () => {
    await tessera?.cleanup()
    await strictIdp?.close()
  })

  it('signs the AuthnRequest; the IdP verifies it against the served SP metadata and the person signs in', async () => {
    loadedSpMetadata = await register('signed-saml', 'signed.test', {
      authnRequestsSigned: true,
      spMetadata: { metadata: spMetadataWithCert('signed-saml'), privateKey: sp.key },
    })
    expect(loadedSpMetadata).toContain('AuthnRequestsSigned="true"')
    expect(loadedSpMetadata).toContain(sp.cert.replace(/-----[^-]+-----|\s/g, '').slice(0, 64))

    const browser = webBrowser()
    const started = await startSignIn(browser, 'grace@signed.test')
    expect(started.status, JSON.stringify(started.json)).toBe(200)
    const url = new URL(started.json.url as string)
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')
    expect(url.searchParams.get('Signature')).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(url.searchParams.get('RelayState')).toMatch(/^[A-Za-z0-9]{32}$/)

    // The IdP checks the signature (else it answers 400), then posts its form to the ACS.
    const page = await fetch(url)
    const html = await page.text()
    expect(page.status, html).toBe(200)
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&')
    const SAMLResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1]
    const RelayState = /name="RelayState" value="([^"]+)"/.exec(html)?.[1]
    expect([action, RelayState]).toEqual([
      api('/sso/saml2/sp/acs/signed-saml'),
      url.searchParams.get('RelayState'),
    ])
    const acs = await browser.request('POST', action as string, {
      form: { SAMLResponse: SAMLResponse as string, RelayState: RelayState as string },
    })
    expect([acs.status, acs.location]).toEqual([302, '/dashboard'])
    const session = JSON.parse((await browser.request('GET', api('/get-session'))).body) as {
      user: { email: string }
    }
    expect(session.user.email).toBe('grace@signed.test')
  })

  it('the IdP refuses the signed request once its RelayState or request is changed on the way', async () => {
    const started = await startSignIn(webBrowser(), 'alan@signed.test')
    const url = new URL(started.json.url as string)
    const relayChanged = new URL(url)
    relayChanged.searchParams.set('RelayState', 'A'.repeat(32))
    const refused = await fetch(relayChanged)
    expect([refused.status, await refused.text()]).toEqual([
      400,
      expect.stringContaining('ERR_FAILED_MESSAGE_SIGNATURE_VERIFICATION'),
    ])
    const unsigned = new URL(url)
    unsigned.searchParams.delete('Signature')
    unsigned.searchParams.delete('SigAlg')
    const missing = await fetch(unsigned)
    expect([missing.status, await missing.text()]).toEqual([
      400,
      expect.stringContaining('ERR_MISSING_SIG_ALG'),
    ])
  })

  it('an IdP that wants signed requests refuses the unsigned request of a provider that does not sign', async () => {
    loadedSpMetadata = await register('unsigned-saml', 'unsigned.test', {})
    expect(loadedSpMetadata).toContain('AuthnRequestsSigned="false"')
    const started = await startSignIn(webBrowser(), 'ada@unsigned.test')
    expect(started.status, JSON.stringify(started.json)).toBe(200)
    const url = new URL(started.json.url as string)
    expect([url.searchParams.has('Signature'), url.searchParams.has('SigAlg')]).toEqual([false, false])
    const refused = await fetch(url)
    expect([refused.status, await refused.text()]).toEqual([
      400,
      expect.stringContaining('ERR_MISSING_SIG_ALG'),
    ])
  })

  it('refuses to start a sign-in for a provider set to sign without a private key, in the plugin’s words', async () => {
    await register('keyless-saml', 'keyless.test', { authnRequestsSigned: true })
    const started = await startSignIn(webBrowser(), 'kay@keyless.test')
    expect(started.status, JSON.stringify(started.json)).toBe(400)
    expect(started.json.message).toBe(
      'authnRequestsSigned is enabled but no privateKey provided in spMetadata or samlConfig',
    )
  })
})
