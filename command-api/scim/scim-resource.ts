/// A SCIM User body (RFC 7643 core User, as Okta and Entra ID send it) read into what Tessera keeps:
/// userName, externalId and active (the directory's), and the account's name and address. The
/// address is the primary email, else the first, else a userName that is an address.

import { Type } from 'typebox'
import { ScimError } from '../../http/scim/scim-http.js'
import { SCIM_USER_SCHEMA } from '../../http/scim/scim-presenter.js'

export type ScimUserInput = {
  userName: string
  externalId: string | null
  active: boolean
  name: string
  email: string
}

const Email = Type.Object(
  {
    value: Type.String({ maxLength: 254 }),
    primary: Type.Optional(Type.Boolean()),
    type: Type.Optional(Type.String({ maxLength: 256 })),
    display: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
)

/** The body schema: known attributes typed, others (phoneNumbers, the enterprise extension) let by. */
export const ScimUserBody = Type.Object(
  {
    schemas: Type.Array(Type.String({ maxLength: 256 }), { minItems: 1, maxItems: 8 }),
    userName: Type.String({ minLength: 1, maxLength: 256 }),
    externalId: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    active: Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 5 })])),
    displayName: Type.Optional(Type.String({ maxLength: 256 })),
    name: Type.Optional(
      Type.Object(
        {
          formatted: Type.Optional(Type.String({ maxLength: 1024 })),
          givenName: Type.Optional(Type.String({ maxLength: 256 })),
          familyName: Type.Optional(Type.String({ maxLength: 256 })),
        },
        { additionalProperties: true },
      ),
    ),
    emails: Type.Optional(Type.Array(Email, { maxItems: 20 })),
  },
  { additionalProperties: true },
)

/** The resource as a patch edits it: plain JSON, the shape of ScimUserBody. */
export type ScimUserResource = {
  schemas: string[]
  userName: string
  externalId?: string | null
  active?: boolean | string
  displayName?: string
  name?: { formatted?: string; givenName?: string; familyName?: string }
  emails?: { value: string; primary?: boolean; type?: string }[]
}

const invalid = (detail: string) => new ScimError(400, detail, 'invalidValue')

/** Entra ID sends `"False"` for false; anything else that is not a boolean is refused. */
export const booleanOf = (value: unknown, attribute: string): boolean => {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true'
  throw invalid(`${attribute} must be a boolean`)
}

const nameOf = (resource: ScimUserResource): string => {
  const { formatted, givenName, familyName } = resource.name ?? {}
  const composed = [givenName, familyName].filter((part) => part?.trim()).join(' ')
  return (formatted?.trim() || composed || resource.displayName?.trim() || resource.userName).trim()
}

const emailOf = (resource: ScimUserResource): string => {
  const emails = resource.emails ?? []
  if (emails.filter((email) => email.primary === true).length > 1)
    throw invalid('emails may have one primary value at most')
  const chosen = emails.find((email) => email.primary === true) ?? emails[0]
  const value = chosen?.value ?? (resource.userName.includes('@') ? resource.userName : null)
  if (!value) throw invalid('A User needs an email address (emails or an address as userName)')
  return value.trim()
}

export const canonicalUser = (resource: ScimUserResource): ScimUserInput => {
  if (!resource.schemas.includes(SCIM_USER_SCHEMA)) throw invalid(`schemas must contain ${SCIM_USER_SCHEMA}`)
  const userName = resource.userName?.trim()
  if (typeof userName !== 'string' || userName === '') throw invalid('userName is required')
  const externalId =
    typeof resource.externalId === 'string' && resource.externalId.trim() !== ''
      ? resource.externalId.trim()
      : null
  return {
    userName,
    externalId,
    active: resource.active === undefined ? true : booleanOf(resource.active, 'active'),
    name: nameOf(resource),
    email: emailOf(resource),
  }
}
