/// What the verified assertion says, read from the signed bytes only (never from the envelope
/// around them, which an attacker may have rewrapped), and the checks on it.

import type { Element } from '@xmldom/xmldom'
import { fail } from './saml-errors.js'
import { attributeOf, childElements, NS, pathElements, textOf } from './saml-xml.js'

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer'

export type BearerConfirmation = {
  recipient?: string
  inResponseTo?: string
  notBefore?: string
  notOnOrAfter?: string
}

export type AssertionFacts = {
  id: string
  issuer?: string
  nameId?: string
  conditions: { notBefore?: string; notOnOrAfter?: string }
  audienceGroups: string[][]
  bearer: BearerConfirmation[]
  attributes: Record<string, string | string[]>
}

export const readAssertion = (assertion: Element): AssertionFacts => {
  const conditions = childElements(assertion, NS.assertion, 'Conditions')[0]
  return {
    id: attributeOf(assertion, 'ID') ?? fail('SAML_INVALID_XML', 'SAML assertion has no ID'),
    issuer: textOf(childElements(assertion, NS.assertion, 'Issuer')[0]),
    nameId: textOf(
      pathElements(assertion, [
        [NS.assertion, 'Subject'],
        [NS.assertion, 'NameID'],
      ])[0],
    ),
    conditions: {
      notBefore: attributeOf(conditions, 'NotBefore'),
      notOnOrAfter: attributeOf(conditions, 'NotOnOrAfter'),
    },
    audienceGroups: conditions
      ? childElements(conditions, NS.assertion, 'AudienceRestriction').map((group) =>
          childElements(group, NS.assertion, 'Audience').flatMap((a) => textOf(a) ?? []),
        )
      : [],
    bearer: readBearer(assertion),
    attributes: readAttributes(assertion),
  }
}

const readBearer = (assertion: Element): BearerConfirmation[] =>
  pathElements(assertion, [
    [NS.assertion, 'Subject'],
    [NS.assertion, 'SubjectConfirmation'],
  ])
    .filter((confirmation) => attributeOf(confirmation, 'Method') === BEARER)
    .flatMap((confirmation) => childElements(confirmation, NS.assertion, 'SubjectConfirmationData'))
    .map((data) => ({
      recipient: attributeOf(data, 'Recipient'),
      inResponseTo: attributeOf(data, 'InResponseTo'),
      notBefore: attributeOf(data, 'NotBefore'),
      notOnOrAfter: attributeOf(data, 'NotOnOrAfter'),
    }))

const readAttributes = (assertion: Element): Record<string, string | string[]> => {
  const attributes: Record<string, string | string[]> = {}
  const statements = childElements(assertion, NS.assertion, 'AttributeStatement')
  for (const attribute of statements.flatMap((s) => childElements(s, NS.assertion, 'Attribute'))) {
    const name = attributeOf(attribute, 'Name')
    if (!name) continue
    const values = childElements(attribute, NS.assertion, 'AttributeValue').flatMap((v) => textOf(v) ?? [])
    if (values.length) attributes[name] = values.length === 1 ? (values[0] as string) : values
  }
  return attributes
}

/** Every AudienceRestriction must name us (SAML core 2.5.1.4: the conditions are a conjunction). */
export const checkAudience = (facts: AssertionFacts, expected: readonly string[]): void => {
  const groups = facts.audienceGroups.filter((group) => group.length > 0)
  if (groups.length === 0) fail('SAML_AUDIENCE_MISSING')
  if (!groups.every((group) => group.some((audience) => expected.includes(audience))))
    fail('SAML_AUDIENCE_MISMATCH')
}

/** The bearer confirmation addressed to our ACS URL: the one the rest of the checks read. */
export const bearerForUs = (facts: AssertionFacts, acs: string): BearerConfirmation => {
  if (facts.bearer.length === 0) return fail('SAML_BEARER_CONFIRMATION_MISSING')
  return facts.bearer.find((data) => data.recipient === acs) ?? fail('SAML_RECIPIENT_MISMATCH')
}
