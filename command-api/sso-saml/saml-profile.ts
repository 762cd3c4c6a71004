/// The person an assertion describes, through the provider's attribute mapping with the plugin's
/// defaults (email, givenName, surname, displayName; the NameID when no email attribute is sent).

import type { AssertionFacts } from './saml-assertion.js'
import type { SamlMapping } from './saml-config.js'
import { fail } from './saml-errors.js'

export type SamlProfile = {
  nameId: string
  email: string
  name: string
  firstName?: string
  lastName?: string
  /** The IdP's own word on the address, only when the mapping names an attribute for it. */
  emailVerified?: boolean
  /** The mapping's `extraFields`, each read from its attribute. */
  extraFields: Record<string, string | string[]>
  attributes: Record<string, string | string[]>
}

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value

const optional = <K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> =>
  value ? ({ [key]: value } as Record<K, string>) : {}

export const profileOf = (facts: AssertionFacts, mapping: SamlMapping = {}): SamlProfile => {
  const attr = (name: string) => first(facts.attributes[name])
  const nameId = facts.nameId
  const email = (attr(mapping.email || 'email') ?? nameId ?? '').trim().toLowerCase()
  // An opaque NameID is no address: a sign-in needs one to find or make the person.
  if (!nameId || !email.includes('@')) return fail('SAML_PROFILE_INCOMPLETE')
  const firstName = attr(mapping.firstName || 'givenName')
  const lastName = attr(mapping.lastName || 'surname')
  const verified = mapping.emailVerified ? attr(mapping.emailVerified) : undefined
  return {
    nameId,
    email,
    name: [firstName, lastName].filter(Boolean).join(' ') || attr(mapping.name || 'displayName') || nameId,
    ...optional('firstName', firstName),
    ...optional('lastName', lastName),
    ...(verified === undefined ? {} : { emailVerified: verified === 'true' || verified === '1' }),
    extraFields: Object.fromEntries(
      Object.entries(mapping.extraFields ?? {}).flatMap(([field, name]) => {
        const value = facts.attributes[name]
        return value === undefined ? [] : [[field, value]]
      }),
    ),
    attributes: facts.attributes,
  }
}
