/// The `filter` and paging parameters of a SCIM list (RFC 7644 §3.4.2), in the plugin's small
/// grammar: up to ten `attribute eq "value"` joined by `and`, on userName, externalId, emails.value
/// (also `emails[type eq "work"].value`) and id. Paging is 1-based `startIndex` and `count`
/// (default and most: 100).

import { Type } from 'typebox'
import { ScimError } from '../../http/scim/scim-http.js'
import type { ScimGroupFilter } from '../../projections/scim/scim-groups.repository.js'
import type { ScimUserFilter } from '../../projections/scim/scim-users.repository.js'

const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter')

const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:User:/i

const attributeOf = (raw: string): ScimUserFilter['attribute'] | null => {
  const name = raw.replace(CORE_PREFIX, '')
  if (/^emails\[\s*type\s+eq\s+"work"\s*\]\.value$/i.test(name)) return 'emails.value'
  switch (name.toLowerCase()) {
    case 'username':
      return 'userName'
    case 'externalid':
      return 'externalId'
    case 'emails.value':
    case 'emails':
      return 'emails.value'
    case 'id':
      return 'id'
    default:
      return null
  }
}

/** Splits on ` and ` outside quotes and brackets. */
const conjuncts = (filter: string): string[] => {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i]
    if (quoted) {
      if (c === '\\') i++
      else if (c === '"') quoted = false
    } else if (c === '"') quoted = true
    else if (c === '[') depth++
    else if (c === ']') depth--
    else if (depth === 0 && /\s/.test(c ?? '') && /^\s+and\s+/i.test(filter.slice(i))) {
      parts.push(filter.slice(start, i))
      const skip = filter.slice(i).match(/^\s+and\s+/i)?.[0].length ?? 1
      start = i + skip
      i = start - 1
    }
  }
  if (quoted || depth !== 0) throw invalidFilter('filter contains malformed quotes or brackets')
  parts.push(filter.slice(start))
  return parts.map((part) => part.trim())
}

const expression = <Attribute extends string>(
  text: string,
  attributeOf: (raw: string) => Attribute | null,
  resource: string,
): { attribute: Attribute; value: string } => {
  // The attribute stops at its `[`, so a bracketed selection with spaces inside stays one attribute.
  const match = text.match(/^([^\s[]+(?:\[[^\]]*\]\S*)?)\s+(\w+)\s+(.+)$/)
  if (!match) throw invalidFilter('filter must use the form attribute eq "value"')
  const [, rawAttribute = '', operator = '', rawValue = ''] = match
  if (operator.toLowerCase() !== 'eq') throw invalidFilter(`filter operator ${operator} is not supported`)
  const attribute = attributeOf(rawAttribute)
  if (!attribute) throw invalidFilter(`filter attribute ${rawAttribute} is not supported for ${resource}`)
  let value: unknown
  try {
    value = JSON.parse(rawValue)
  } catch {
    throw invalidFilter('filter equality value must be a valid quoted JSON string')
  }
  if (typeof value !== 'string') throw invalidFilter('filter equality value must be a quoted string')
  return { attribute, value }
}

const parse = <Attribute extends string>(
  filter: string | undefined,
  attributeOf: (raw: string) => Attribute | null,
  resource: string,
): { attribute: Attribute; value: string }[] => {
  if (filter === undefined || filter.trim() === '') return []
  const parts = conjuncts(filter.trim())
  if (parts.some((part) => part === '')) throw invalidFilter('filter contains an invalid conjunction')
  if (parts.length > 10) throw invalidFilter('filter supports at most 10 equality expressions')
  return parts.map((part) => expression(part, attributeOf, resource))
}

export const parseScimFilter = (filter: string | undefined): ScimUserFilter[] =>
  parse(filter, attributeOf, 'User')

const GROUP_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:Group:/i

const groupAttributeOf = (raw: string): ScimGroupFilter['attribute'] | null =>
  (({ displayname: 'displayName', externalid: 'externalId', id: 'id' }) as const)[
    raw.replace(GROUP_PREFIX, '').toLowerCase() as 'displayname' | 'externalid' | 'id'
  ] ?? null

/** The Group list's filters: `displayName`, `externalId` and `id`, each `eq`. */
export const parseScimGroupFilter = (filter: string | undefined): ScimGroupFilter[] =>
  parse(filter, groupAttributeOf, 'Group')

const integer = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined
  if (!/^-?\d+$/.test(value.trim())) throw new ScimError(400, `${name} must be an integer`, 'invalidValue')
  return Number(value.trim())
}

/** The query string of a SCIM list (Users and Groups alike), as text: parsed here, not by the schema. */
export const ScimListQuery = Type.Object({
  filter: Type.Optional(Type.String({ maxLength: 4096 })),
  startIndex: Type.Optional(Type.String({ maxLength: 20 })),
  count: Type.Optional(Type.String({ maxLength: 20 })),
  attributes: Type.Optional(Type.String({ maxLength: 1024 })),
  excludedAttributes: Type.Optional(Type.String({ maxLength: 1024 })),
})

/** RFC 7644: startIndex below 1 is 1; count below 0 is 0; the plugin caps count at 100. */
export const parseScimPaging = (query: { startIndex?: string; count?: string }) => {
  const startIndex = Math.max(integer(query.startIndex, 'startIndex') ?? 1, 1)
  const count = Math.min(Math.max(integer(query.count, 'count') ?? 100, 0), 100)
  return { startIndex, offset: startIndex - 1, count }
}
