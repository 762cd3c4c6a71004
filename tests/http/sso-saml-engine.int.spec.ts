/// The SAML service-provider engine against a real IdP on loopback (samlify in its IdP role with a
/// key pair made for this run), with the durable assertion-id claims in a real database.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ClaimAssertionId,
  readSamlResponse,
  type SamlProviderConfig,
  spMetadata,
  startSamlSignIn,
} from '../../command-api/sso-saml/index.js'
import { claimSamlAssertion } from '../../projections/sso-saml/saml-assertion-claims.js'
import { describeEachDatabase, freshPglite } from '../support/databases.js'
import { followToIdp, rewrite, startTestIdp, type TestIdp, testKeyPair } from '../support/saml-idp.js'

const baseUrl = 'http://localhost:3000/api/auth'
const keys = testKeyPair()
let idp: TestIdp
let config: SamlProviderConfig
let database: Awaited<ReturnType<typeof freshPglite>>
let claim: ClaimAssertionId

beforeAll(async () => {
  idp = await startTestIdp(() => spMetadata(config, baseUrl), keys)
  config = {
    providerId: 'acme-saml',
    issuer: 'https://tessera.test/sp/acme',
    entryPoint: idp.ssoUrl,
    cert: idp.cert,
    idpMetadata: { entityID: idp.entityID },
    wantAssertionsSigned: true,
  }
  database = await freshPglite()
  claim = (id, expiresAt) => claimSamlAssertion(database.db, id, expiresAt, new Date())
})
afterAll(async () => {
  await idp.close()
  await database.close()
})

/** One SP-initiated round trip: our AuthnRequest to the IdP, its POST form back. */
const signIn = async (overrides = {}, email = 'ada@example.com') => {
  idp.answerAs({ email, givenName: 'Ada', surname: 'Lovelace' }, overrides)
  const start = startSamlSignIn(config, { baseUrl, relayState: 'state-1' })
  return { start, samlResponse: await followToIdp(start.url) }
}

const read = (samlResponse: string, expectedRequestId: string, now = new Date()) =>
  readSamlResponse(config, { baseUrl, samlResponse, expectedRequestId, now, claimAssertionId: claim })

describe('SAML sign-in against a real IdP on loopback', () => {
  it('publishes SP metadata with our entity id, ACS URL and the wish for signed assertions', () => {
    const xml = spMetadata(config, baseUrl)
    expect(xml).toContain('entityID="https://tessera.test/sp/acme"')
    expect(xml).toContain(`Location="${baseUrl}/sso/saml2/sp/acs/acme-saml"`)
    expect(xml).toContain('WantAssertionsSigned="true"')
  })

  it('starts with an AuthnRequest on the IdP SSO URL and reads the good answer into a profile', async () => {
    const { start, samlResponse } = await signIn()
    expect(start.url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true)
    expect(start.url).toContain('RelayState=state-1')
    const result = await read(samlResponse, start.requestId)
    expect(result).toMatchObject({
      ok: true,
      issuer: idp.entityID,
      profile: {
        nameId: 'ada@example.com',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        firstName: 'Ada',
        lastName: 'Lovelace',
      },
    })
  })

  it('refuses a signed assertion whose email was edited after signing', async () => {
    const { start, samlResponse } = await signIn()
    const tampered = rewrite(samlResponse, (xml) => xml.replaceAll('ada@example.com', 'eve@example.com'))
    expect(await read(tampered, start.requestId)).toMatchObject({ ok: false, code: 'SAML_SIGNATURE_INVALID' })
  })

  it('refuses an assertion with its signature removed', async () => {
    const { start, samlResponse } = await signIn()
    const unsigned = rewrite(samlResponse, (xml) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, ''))
    expect(unsigned).not.toEqual(samlResponse)
    expect(await read(unsigned, start.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_ASSERTION_SIGNATURE_REQUIRED',
    })
  })

  it('refuses an assertion signed by another key than the configured certificate', async () => {
    const other = await startTestIdp(() => spMetadata(config, baseUrl), testKeyPair('impostor'))
    try {
      const impostor = { ...config, entryPoint: other.ssoUrl }
      other.answerAs({ email: 'ada@example.com' }, { AssertionID: '_impostor' })
      const start = startSamlSignIn(impostor, { baseUrl })
      const samlResponse = await followToIdp(start.url)
      const result = await readSamlResponse(config, {
        baseUrl,
        samlResponse,
        expectedRequestId: start.requestId,
        now: new Date(),
        claimAssertionId: claim,
      })
      expect(result.ok).toBe(false)
    } finally {
      await other.close()
    }
  })

  it('refuses an assertion for another audience', async () => {
    const { start, samlResponse } = await signIn({ Audience: 'https://other-sp.test' })
    expect(await read(samlResponse, start.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_AUDIENCE_MISMATCH',
    })
  })

  it('refuses an assertion addressed to another ACS URL', async () => {
    const { start, samlResponse } = await signIn({
      SubjectRecipient: 'https://other-sp.test/acs',
      Destination: 'https://other-sp.test/acs',
    })
    expect(await read(samlResponse, start.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_DESTINATION_MISMATCH',
    })
    const { start: again, samlResponse: second } = await signIn({
      SubjectRecipient: 'https://other-sp.test/acs',
    })
    expect(await read(second, again.requestId)).toMatchObject({ ok: false, code: 'SAML_RECIPIENT_MISMATCH' })
  })

  it('refuses an expired assertion beyond the skew, and accepts one just inside it', async () => {
    const past = new Date(Date.now() - 5 * 60_000).toISOString()
    const { start, samlResponse } = await signIn({
      ConditionsNotOnOrAfter: past,
      SubjectConfirmationDataNotOnOrAfter: past,
    })
    expect(await read(samlResponse, start.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_ASSERTION_EXPIRED',
    })
    const justNow = new Date(Date.now() - 30_000).toISOString()
    const late = await signIn({
      ConditionsNotOnOrAfter: justNow,
      SubjectConfirmationDataNotOnOrAfter: justNow,
    })
    expect(await read(late.samlResponse, late.start.requestId)).toMatchObject({ ok: true })
  })

  it('refuses an assertion whose NotBefore is still ahead of the clock beyond the skew', async () => {
    const { start, samlResponse } = await signIn()
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000)
    expect(await read(samlResponse, start.requestId, tenMinutesAgo)).toMatchObject({
      ok: false,
      code: 'SAML_ASSERTION_NOT_YET_VALID',
    })
  })

  it('refuses an answer to another request', async () => {
    const { samlResponse } = await signIn()
    const other = startSamlSignIn(config, { baseUrl })
    expect(await read(samlResponse, other.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_IN_RESPONSE_TO_MISMATCH',
    })
  })

  it('accepts an assertion once and refuses the replay, and a refused answer uses up no id', async () => {
    const { start, samlResponse } = await signIn({ AssertionID: '_replayed-once' })
    expect(await read(samlResponse, start.requestId, new Date(Date.now() - 10 * 60_000))).toMatchObject({
      ok: false,
    })
    expect(await read(samlResponse, start.requestId)).toMatchObject({
      ok: true,
      assertionId: '_replayed-once',
    })
    expect(await read(samlResponse, start.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_ASSERTION_REPLAYED',
    })
  })

  it('refuses a second assertion wrapped beside the signed one', async () => {
    const { start, samlResponse } = await signIn()
    const wrapped = rewrite(samlResponse, (xml) => {
      const evil =
        /<saml:Assertion[\s\S]*<\/saml:Assertion>/
          .exec(xml)?.[0]
          .replace(/ada@example\.com/g, 'eve@example.com') ?? ''
      return xml.replace(
        '</samlp:Response>',
        `${evil.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '')}</samlp:Response>`,
      )
    })
    const result = await read(wrapped, start.requestId)
    expect(result.ok).toBe(false)
  })

  it('refuses a DTD, bad base64 and an answer over the size limit, each with a code', async () => {
    const { start } = await signIn()
    const dtd = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]><samlp:Response/>',
    ).toString('base64')
    expect(await read(dtd, start.requestId)).toMatchObject({ ok: false, code: 'SAML_INVALID_XML' })
    expect(await read('not base64 !!', start.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_INVALID_ENCODING',
    })
    expect(await read('A'.repeat(300 * 1024), start.requestId)).toMatchObject({
      ok: false,
      code: 'SAML_RESPONSE_TOO_LARGE',
    })
  })
})

describeEachDatabase('The SAML assertion claims', (fresh) => {
  it('let one of two concurrent claims of an id win, and forget ids whose window closed', async () => {
    const db = await fresh()
    try {
      const now = new Date()
      const until = new Date(now.getTime() + 60_000)
      const both = await Promise.all([
        claimSamlAssertion(db.db, 'p:_a', until, now),
        claimSamlAssertion(db.db, 'p:_a', until, now),
      ])
      expect(both.filter(Boolean)).toHaveLength(1)
      const later = new Date(until.getTime() + 1)
      expect(await claimSamlAssertion(db.db, 'p:_a', new Date(later.getTime() + 60_000), later)).toBe(true)
    } finally {
      await db.close()
    }
  })
})
