/// A SCIM Group's bodies read into the group aggregate's operations (RFC 7644 §3.5.2, on the
/// plugin's wire): POST and PUT bodies, and PATCH operations on `members` (`add`, `remove`,
/// `replace`, `remove` of `members[value eq "<id>"]`, as Okta and Entra ID send them),
/// `displayName` and `externalId`, with or without a path. The operations are applied to the group
/// on its stream (domain/scim/scim-group.ts), never to a copy read beforehand.

import { Type } from 'typebox'
import type { ScimGroupOperation } from '../../domain/scim/scim-group.js'
import { SCIM_GROUP_SCHEMA } from '../../http/scim/scim-group-presenter.js'
import { ScimError } from '../../http/scim/scim-http.js'
import type { ScimGroupInput } from './scim-groups.js'
import { SCIM_PATCH_SCHEMA } from './scim-patch.js'

const Member = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 256 }),
    type: Type.Optional(Type.String({ maxLength: 32 })),
    display: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  // `$ref` comes as an additional property: named in the schema, the OpenAPI generator would read
  // it as a JSON reference and fail.
  { additionalProperties: true },
)

export const ScimGroupBody = Type.Object(
  {
    schemas: Type.Array(Type.String({ maxLength: 256 }), { minItems: 1, maxItems: 2 }),
    displayName: Type.String({ maxLength: 256 }),
    externalId: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    members: Type.Optional(Type.Array(Member, { maxItems: 1000 })),
  },
  { additionalProperties: true },
)

type GroupBody = { schemas: string[]; displayName: string; externalId?: string | null; members?: unknown[] }
type Operation = { op: string; path?: string; value?: unknown }

const invalid = (detail: string, scimType = 'invalidValue') => new ScimError(400, detail, scimType)

const memberIds = (value: unknown): string[] => {
  if (!Array.isArray(value)) throw invalid('members must be an array')
  if (value.length > 1000) throw invalid('Groups cannot contain more than 1000 direct members')
  return value.map((member) => {
    const { value: id, type } = (member ?? {}) as { value?: unknown; type?: unknown }
    const typed = type === undefined || (typeof type === 'string' && type.toLowerCase() === 'user')
    if (typeof id !== 'string' || id.trim() === '' || !typed)
      throw invalid('Group members must reference a SCIM User')
    return id
  })
}

export const canonicalGroup = (body: GroupBody): ScimGroupInput => {
  if (body.schemas.length !== 1 || body.schemas[0] !== SCIM_GROUP_SCHEMA)
    throw invalid('schemas must contain only the core SCIM Group schema')
  const externalId =
    typeof body.externalId === 'string' && body.externalId.trim() !== '' ? body.externalId : null
  return { displayName: body.displayName, externalId, members: [...new Set(memberIds(body.members ?? []))] }
}

/** A PUT replaces every attribute. */
export const replacement = (input: ScimGroupInput): ScimGroupOperation[] => [
  { op: 'set-display-name', value: input.displayName },
  { op: 'set-external-id', value: input.externalId },
  { op: 'replace-members', userIds: input.members },
]

const MEMBER_VALUE_PATH = /^members\s*\[\s*value\s+eq\s+("(?:\\.|[^"\\])*")\s*\]$/i
const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:Group:/i

const text = (value: unknown, attribute: string): string => {
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value
  if (typeof single !== 'string' || single.trim() === '')
    throw invalid(`${attribute} must be a non-empty string`)
  return single.trim()
}

const memberOfPath = (path: string): string | null => {
  const quoted = path.match(MEMBER_VALUE_PATH)?.[1]
  if (!quoted) return null
  const id = JSON.parse(quoted) as unknown
  return typeof id === 'string' && id !== '' ? id : null
}

const attribute = (op: string, rawPath: string, value: unknown): ScimGroupOperation[] => {
  const path = rawPath.trim().replace(CORE_PREFIX, '')
  const lower = path.toLowerCase()
  if (lower === 'members') {
    if (op === 'add') return [{ op: 'add-members', userIds: memberIds(value) }]
    if (op === 'replace') return [{ op: 'replace-members', userIds: memberIds(value) }]
    return [
      value === undefined
        ? { op: 'replace-members', userIds: [] }
        : { op: 'remove-members', userIds: memberIds(value) },
    ]
  }
  const member = memberOfPath(path)
  if (member !== null && op === 'remove') return [{ op: 'remove-members', userIds: [member] }]
  if (lower === 'id' || lower === 'schemas' || lower === 'meta' || lower.startsWith('meta.'))
    throw invalid(`${rawPath} is read-only`, 'mutability')
  if (lower === 'displayname') {
    if (op === 'remove') throw invalid('displayName is required and cannot be removed', 'mutability')
    return [{ op: 'set-display-name', value: text(value, 'displayName') }]
  }
  if (lower === 'externalid')
    return [{ op: 'set-external-id', value: op === 'remove' ? null : text(value, 'externalId') }]
  throw invalid('Unsupported Group PATCH path', 'invalidPath')
}

const pathless = (op: string, value: unknown): ScimGroupOperation[] => {
  if (op === 'remove') throw invalid('A pathless remove operation has no target', 'noTarget')
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('A pathless Group PATCH value must be an object')
  return Object.entries(value).flatMap(([key, inner]) => {
    const lower = key.toLowerCase()
    if (lower === 'schemas' || lower === 'meta' || lower === 'id') return []
    return attribute(op, key, inner)
  })
}

export const groupOperations = (body: {
  schemas: string[]
  Operations: Operation[]
}): ScimGroupOperation[] => {
  if (body.schemas.length !== 1 || body.schemas[0] !== SCIM_PATCH_SCHEMA)
    throw invalid('schemas must contain only the PatchOp schema')
  return body.Operations.flatMap((operation) => {
    // Entra ID sends `Add` and `Remove`; the plugin reads the op case-insensitively, `replace` if absent.
    const op = (operation.op || 'replace').toLowerCase()
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw invalid(`op ${operation.op} is not supported`)
    const path = operation.path?.trim()
    return path ? attribute(op, path, operation.value) : pathless(op, operation.value)
  })
}
