/// The assertion consumer service's engine: from the IdP's POSTed SAMLResponse to the person it
/// vouches for, or a refusal with its code. Every check runs before the assertion id is claimed,
/// so a refused answer never uses up an id.

import { createHash, timingSafeEqual } from 'node:crypto'
import * as samlify from 'samlify'
import { bearerForUs, checkAudience, readAssertion } from './saml-assertion.js'
import { acsUrl, expectedAudiences, type SamlProviderConfig } from './saml-config.js'
import { identityProvider } from './saml-entities.js'
import { fail, SamlCheckFailed, type SamlRefusal } from './saml-errors.js'
import { profileOf, type SamlProfile } from './saml-profile.js'
import { verifiedAssertion } from './saml-signature.js'
import { checkValidityWindow } from './saml-time.js'
import { attributeOf, childElements, NS, parseSamlXml } from './saml-xml.js'

/** Remembers an assertion id until `expiresAt`; false when it was already taken (a replay). */
export type ClaimAssertionId = (id: string, expiresAt: Date) => Promise<boolean>

export const DEFAULT_SKEW_SECONDS = 60
/** The plugin's default `saml.maxResponseSize`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024

export type ReadSamlResponseInput = {
  baseUrl: string
  /** The form field `SAMLResponse`, base64 as posted. */
  samlResponse: string
  /** The AuthnRequest id this browser started with; unsolicited answers are refused. */
  expectedRequestId: string
  now: Date
  skewSeconds?: number
  maxResponseBytes?: number
  claimAssertionId: ClaimAssertionId
}

export type SamlSignIn = { ok: true; profile: SamlProfile; assertionId: string; issuer: string }

export const readSamlResponse = async (
  config: SamlProviderConfig,
  input: ReadSamlResponseInput,
): Promise<SamlSignIn | SamlRefusal> => {
  try {
    return await read(config, input)
  } catch (error) {
    if (error instanceof SamlCheckFailed) return error.refusal
    throw error
  }
}

const read = async (config: SamlProviderConfig, input: ReadSamlResponseInput): Promise<SamlSignIn> => {
  const xml = decode(input.samlResponse, input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES)
  const response = parseSamlXml(xml)
  if (response.namespaceURI !== NS.protocol || response.localName !== 'Response') fail('SAML_NOT_A_RESPONSE')
  await samlify.SamlLib.isValidXml(xml).catch(() =>
    fail('SAML_INVALID_XML', 'SAML response does not follow the SAML schema'),
  )
  checkStatus(response)
  const acs = acsUrl(config, input.baseUrl)
  checkEnvelope(response, acs, input.expectedRequestId)
  const idp = identityProvider(config)
  const facts = readAssertion(verifiedAssertion(config, idp, response, xml))
  const issuer = idp.entityMeta.getEntityID()
  if (facts.issuer !== issuer) fail('SAML_ISSUER_MISMATCH')
  checkAudience(facts, expectedAudiences(config))
  const bearer = bearerForUs(facts, acs)
  if (!sameId(bearer.inResponseTo, input.expectedRequestId)) fail('SAML_IN_RESPONSE_TO_MISMATCH')
  const rememberUntil = checkValidityWindow(
    facts,
    bearer,
    input.now,
    input.skewSeconds ?? DEFAULT_SKEW_SECONDS,
  )
  const profile = profileOf(facts, config.mapping)
  // Scoped by provider: two IdPs may pick the same id, and one must not burn the other's.
  if (!(await input.claimAssertionId(`${config.providerId}:${facts.id}`, rememberUntil)))
    fail('SAML_ASSERTION_REPLAYED')
  return { ok: true, profile, assertionId: facts.id, issuer }
}

const decode = (posted: string, maxBytes: number): string => {
  if (Buffer.byteLength(posted, 'utf8') > maxBytes)
    fail('SAML_RESPONSE_TOO_LARGE', `SAML response exceeds maximum allowed size (${maxBytes} bytes)`)
  const compact = posted.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) fail('SAML_INVALID_ENCODING')
  const xml = Buffer.from(compact, 'base64').toString('utf8')
  return xml.includes('<') ? xml : fail('SAML_INVALID_ENCODING')
}

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success'

const checkStatus = (response: Element): void => {
  const status = childElements(response, NS.protocol, 'Status')[0]
  const code = status ? childElements(status, NS.protocol, 'StatusCode')[0] : undefined
  if (attributeOf(code, 'Value') !== SUCCESS) fail('SAML_STATUS_NOT_SUCCESS')
}

/** The Response's own Destination and InResponseTo, when present, must agree too (SAML core 3.2.2). */
const checkEnvelope = (response: Element, acs: string, expectedRequestId: string): void => {
  const destination = attributeOf(response, 'Destination')
  if (destination !== undefined && destination !== acs) fail('SAML_DESTINATION_MISMATCH')
  const inResponseTo = attributeOf(response, 'InResponseTo')
  if (inResponseTo !== undefined && !sameId(inResponseTo, expectedRequestId))
    fail('SAML_IN_RESPONSE_TO_MISMATCH')
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest()

/** Constant-time: the request id is what binds the answer to the browser that asked. */
const sameId = (got: string | undefined, expected: string): boolean =>
  got !== undefined && expected !== '' && timingSafeEqual(digest(got), digest(expected))

type Element = ReturnType<typeof parseSamlXml>
