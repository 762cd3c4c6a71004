/// A real SAML 2.0 identity provider on loopback for tests: samlify in its IdP role, behind an HTTP
/// server that reads the AuthnRequest from the HTTP-Redirect binding and answers with the
/// HTTP-POST form a browser would submit to the ACS. Its key pair is TEST MATERIAL, made by the
/// `openssl` binary for each run and never written outside a temporary folder.

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as samlify from 'samlify'

export type TestKeyPair = { key: string; cert: string }

/** A fresh self-signed RSA certificate; needs `openssl` (Debian: `apt-get install openssl`). */
export const testKeyPair = (commonName = 'tessera-test-idp'): TestKeyPair => {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'))
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${commonName}`],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      ],
      { stdio: 'ignore' },
    )
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** What the next answer says; anything left out is what an honest IdP would send. */
export type AnswerOverrides = Partial<{
  Audience: string
  SubjectRecipient: string
  Destination: string
  InResponseTo: string
  ConditionsNotBefore: string
  ConditionsNotOnOrAfter: string
  SubjectConfirmationDataNotOnOrAfter: string
  AssertionID: string
}>

export type TestIdp = {
  entityID: string
  /** The IdP's metadata XML (entity id, SSO URL, signing certificate), as an IdP's admin page offers it. */
  metadata: string
  ssoUrl: string
  cert: string
  /** Sets the user and the changes the next answers carry. */
  answerAs(user: { email: string; givenName?: string; surname?: string }, overrides?: AnswerOverrides): void
  close(): Promise<void>
}

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

const attributeStatement = (attributes: Record<string, string | undefined>): string =>
  `<saml:AttributeStatement>${Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${name}"><saml:AttributeValue xsi:type="xs:string">${escapeXml(value as string)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('')}</saml:AttributeStatement>`

/** The IdP's page as a browser meets it: the form posts itself once loaded. */
const autoSubmitting = (form: string): string =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title></head><body><main>${form}<noscript><button type="submit">Continue</button></noscript></form></main><script>document.forms[0].submit()</script></body></html>`

export const startTestIdp = async (
  spMetadataXml: () => string,
  keys: TestKeyPair,
  options: {
    /** An IdP that wants signed AuthnRequests checks each against the SP metadata's signing certificate. */
    wantAuthnRequestsSigned?: boolean
    /** The host name in its URLs (it listens on 127.0.0.1 all the same): 'localhost' puts it on another site than a Tessera at 127.0.0.1. */
    host?: string
    /** Its page posts the form itself, as real IdPs' pages do (with a button for browsers without scripts). */
    autoSubmit?: boolean
  } = {},
): Promise<TestIdp> => {
  let user = { email: 'ada@example.com' } as { email: string; givenName?: string; surname?: string }
  let overrides: AnswerOverrides = {}
  const server: Server = createServer((req, res) => {
    answer(req.url ?? '/')
      .then((html) => res.writeHead(200, { 'content-type': 'text/html' }).end(html))
      .catch((error: unknown) =>
        res.writeHead(400).end(error instanceof Error ? String(error.stack) : String(error)),
      )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`
  const entityID = `${origin}/metadata`
  const idp = samlify.IdentityProvider({
    entityID,
    privateKey: keys.key,
    signingCert: keys.cert,
    singleSignOnService: [
      { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: `${origin}/sso` },
    ],
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    wantAuthnRequestsSigned: options.wantAuthnRequestsSigned === true,
  })

  const answer = async (path: string): Promise<string> => {
    const url = new URL(path, origin)
    const sp = samlify.ServiceProvider({ metadata: spMetadataXml() })
    // A signed request is checked over its query as sent (SAMLRequest, RelayState, SigAlg), not re-encoded.
    const octetString = (url.search.slice(1).split('&') ?? [])
      .filter((pair) => /^(SAMLRequest|RelayState|SigAlg)=/.test(pair))
      .join('&')
    const request = await idp.parseLoginRequest(sp, 'redirect', {
      query: Object.fromEntries(url.searchParams),
      octetString,
    })
    const now = new Date()
    const later = new Date(now.getTime() + 5 * 60_000).toISOString()
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string
    const values = {
      ID: `_${crypto.randomUUID()}`,
      AssertionID: `_${crypto.randomUUID()}`,
      Destination: acs,
      Audience: sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: entityID,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: user.email,
      InResponseTo: String(request.extract.request?.id),
      AuthnStatement: '',
      ...overrides,
    }
    const response = await idp.createLoginResponse(sp, { extract: request.extract }, 'post', user, {
      relayState: url.searchParams.get('RelayState') ?? '',
      customTagReplacement: (template) => {
        const withAttributes = template.replace(
          '{AttributeStatement}',
          attributeStatement({ email: user.email, givenName: user.givenName, surname: user.surname }),
        )
        return { id: values.ID, context: samlify.SamlLib.replaceTagsByValue(withAttributes, values) }
      },
    })
    const relayState = url.searchParams.get('RelayState')
    const relayInput = relayState
      ? `<input type="hidden" name="RelayState" value="${escapeXml(relayState)}"/>`
      : ''
    const form = `<form method="post" action="${escapeXml(acs)}"><input type="hidden" name="SAMLResponse" value="${response.context}"/>${relayInput}`
    return options.autoSubmit ? autoSubmitting(form) : `${form}</form>`
  }

  return {
    entityID,
    metadata: idp.getMetadata(),
    ssoUrl: `${origin}/sso`,
    cert: keys.cert,
    answerAs(next, nextOverrides = {}) {
      user = next
      overrides = nextOverrides
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** What a browser would do with the IdP's page: fetch it and read the form's SAMLResponse. */
export const followToIdp = async (url: string): Promise<string> => {
  const page = await fetch(url)
  const html = await page.text()
  const match = /name="SAMLResponse" value="([^"]+)"/.exec(html)
  if (!match?.[1]) throw new Error(`The IdP answered ${page.status}: ${html.slice(0, 300)}`)
  return match[1]
}

/** The IdP page's whole form: where it posts, the SAMLResponse and the RelayState it echoes. */
export const followToIdpForm = async (
  url: string,
): Promise<{ action: string; samlResponse: string; relayState: string | null }> => {
  const html = await (await fetch(url)).text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1]
  if (!action || !samlResponse) throw new Error(`The IdP answered: ${html.slice(0, 300)}`)
  const relayState = /name="RelayState" value="([^"]+)"/.exec(html)?.[1] ?? null
  return { action: action.replaceAll('&amp;', '&'), samlResponse, relayState }
}

/** Decodes a SAMLResponse, lets a test rewrite its XML, and encodes it again. */
export const rewrite = (samlResponse: string, change: (xml: string) => string): string =>
  Buffer.from(change(Buffer.from(samlResponse, 'base64').toString('utf8')), 'utf8').toString('base64')
