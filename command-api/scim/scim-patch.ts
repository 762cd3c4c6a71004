/// RFC 7644 §3.5.2 PATCH on a User: `add`, `replace` and `remove` operations applied in order to the
/// resource as it stands, which is then stored as a replace would be. Paths: userName, externalId,
/// active, displayName, name and its parts, emails (and `emails[type eq "work"].value`,
/// `emails[primary eq true].value`); no path: the value's attributes, merged (as Okta and Entra send).

import { Type } from 'typebox'
import { ScimError } from '../../http/scim/scim-http.js'
import { booleanOf, type ScimUserResource } from './scim-resource.js'

export const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

export const ScimPatchBody = Type.Object({
  schemas: Type.Array(Type.String({ maxLength: 256 }), { minItems: 1, maxItems: 2 }),
  Operations: Type.Array(
    Type.Object(
      {
        op: Type.String({ maxLength: 16 }),
        path: Type.Optional(Type.String({ maxLength: 512 })),
        value: Type.Optional(Type.Unknown()),
      },
      { additionalProperties: true },
    ),
    { minItems: 1, maxItems: 64 },
  ),
})

type Operation = { op: string; path?: string; value?: unknown }

const invalid = (detail: string, scimType = 'invalidValue') => new ScimError(400, detail, scimType)

const text = (value: unknown, path: string): string => {
  // Entra ID wraps a single value in an array.
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value
  if (typeof single !== 'string') throw invalid(`${path} must be a string`)
  return single
}

const EMAIL_VALUE_PATH = /^emails\[\s*(type\s+eq\s+"[^"]*"|primary\s+eq\s+true)\s*\]\.value$/i

const setEmailValue = (resource: ScimUserResource, value: string) => {
  const emails = resource.emails ?? []
  const index = Math.max(
    emails.findIndex((email) => email.primary === true),
    0,
  )
  const next = [...emails]
  next[index] = { ...(next[index] ?? { primary: true }), value }
  resource.emails = next
}

const setPath = (resource: ScimUserResource, rawPath: string, value: unknown) => {
  const path = rawPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:User:/i, '')
  const lower = path.toLowerCase()
  if (lower === 'username') resource.userName = text(value, path)
  else if (lower === 'externalid') resource.externalId = text(value, path)
  else if (lower === 'active') resource.active = booleanOf(Array.isArray(value) ? value[0] : value, 'active')
  else if (lower === 'displayname') resource.displayName = text(value, path)
  else if (lower === 'name') resource.name = { ...resource.name, ...(value as object) }
  else if (lower === 'name.formatted') resource.name = { ...resource.name, formatted: text(value, path) }
  else if (lower === 'name.givenname') resource.name = withName(resource, { givenName: text(value, path) })
  else if (lower === 'name.familyname') resource.name = withName(resource, { familyName: text(value, path) })
  else if (lower === 'emails') {
    if (!Array.isArray(value)) throw invalid('emails must be a list')
    resource.emails = value as ScimUserResource['emails']
  } else if (EMAIL_VALUE_PATH.test(path)) setEmailValue(resource, text(value, path))
  else throw invalid(`path ${rawPath} is not supported`, 'invalidPath')
}

/** A part of the name changed alone: the formatted name is composed anew from the parts. */
const withName = (resource: ScimUserResource, part: { givenName?: string; familyName?: string }) => {
  const name = { ...resource.name, ...part }
  const formatted = [name.givenName, name.familyName].filter(Boolean).join(' ')
  return { ...name, formatted }
}

const removePath = (resource: ScimUserResource, rawPath: string) => {
  const lower = rawPath.toLowerCase()
  if (lower === 'externalid') resource.externalId = null
  else if (lower === 'displayname') delete resource.displayName
  else if (
    lower === 'name.givenname' ||
    lower === 'name.familyname' ||
    lower === 'name.formatted' ||
    lower === 'name'
  )
    resource.name = {}
  else
    throw invalid(
      `path ${rawPath} cannot be removed`,
      lower === 'username' || lower === 'emails' ? 'mutability' : 'invalidPath',
    )
}

const applyOne = (resource: ScimUserResource, operation: Operation) => {
  const op = operation.op.toLowerCase()
  if (op !== 'add' && op !== 'replace' && op !== 'remove')
    throw invalid(`op ${operation.op} is not supported`)
  if (op === 'remove') {
    if (!operation.path) throw invalid('remove needs a path', 'noTarget')
    return removePath(resource, operation.path)
  }
  if (operation.path) return setPath(resource, operation.path, operation.value)
  if (typeof operation.value !== 'object' || operation.value === null || Array.isArray(operation.value))
    throw invalid(`${op} without a path needs an object value`)
  for (const [key, value] of Object.entries(operation.value)) setPath(resource, key, value)
}

export const applyScimPatch = (
  resource: ScimUserResource,
  body: { schemas: string[]; Operations: Operation[] },
): ScimUserResource => {
  if (body.schemas.length !== 1 || body.schemas[0] !== SCIM_PATCH_SCHEMA)
    throw invalid('schemas must contain only the PatchOp schema')
  const next: ScimUserResource = structuredClone(resource)
  for (const operation of body.Operations) applyOne(next, operation)
  return next
}
