/// `scim` in tessera.config.json, with better-auth's SCIM plugin option names:
///   {"scim": {"connections": [{"id": "okta", "provisioningDomainId": "acme",
///     "credentials": [{"id": "primary", "token": {"env": "SCIM_TOKEN"},
///                      "scopes": ["scim.users.read", "scim.users.write"]}]}]}}
/// `provisioningDomainId` names the organization (its id or slug) the connection provisions into;
/// as in the plugin it defaults to the connection's id. A token is text or `{"env": "NAME"}`; it is
/// kept only as its SHA-256 once read. `scopes` default to all four; `expiresAt` (ISO 8601) retires
/// a credential, for a staged rotation.

import { createHash } from 'node:crypto'

export const SCIM_SCOPE_NAMES = [
  'scim.users.read',
  'scim.users.write',
  'scim.groups.read',
  'scim.groups.write',
] as const
export type ScimScopeName = (typeof SCIM_SCOPE_NAMES)[number]

type TokenSource = { value: string } | { env: string }

export type ScimFileOptions = {
  connections: {
    id: string
    provisioningDomainId: string
    credentials: { id: string; token: TokenSource; scopes: ScimScopeName[]; expiresAt: string | null }[]
  }[]
}

/** A credential ready to check: the token only as its SHA-256 (hex). */
export type ScimCredentialSettings = {
  id: string
  tokenHash: string
  scopes: readonly ScimScopeName[]
  expiresAt: string | null
}

export type ScimSettings = {
  connections: { id: string; provisioningDomainId: string; credentials: ScimCredentialSettings[] }[]
}

type Fail = (path: string, reason: string) => Error

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The plugin's rule for ids: trimmed, 1 to 255 characters; `ba_scim_connection_` is reserved. */
const isIdentifier = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 255 && value === value.trim()

const onlyKeys = (entry: Record<string, unknown>, keys: readonly string[], path: string, fail: Fail) => {
  const unknown = Object.keys(entry).find((key) => !keys.includes(key))
  if (unknown !== undefined) throw fail(`${path}.${unknown}`, 'is not a known option')
}

const tokenSource = (value: unknown, path: string, fail: Fail): TokenSource => {
  if (typeof value === 'string' && value !== '' && !/\s/.test(value)) return { value }
  if (isObject(value) && Object.keys(value).length === 1 && typeof value.env === 'string' && value.env !== '')
    return { env: value.env }
  throw fail(path, 'must be text without spaces or {"env": "VARIABLE_NAME"}')
}

const scopesOf = (value: unknown, path: string, fail: Fail): ScimScopeName[] => {
  if (value === undefined) return [...SCIM_SCOPE_NAMES]
  const scopes = Array.isArray(value) ? value : []
  const known = scopes.every((scope) => SCIM_SCOPE_NAMES.includes(scope))
  if (scopes.length === 0 || !known || new Set(scopes).size !== scopes.length)
    throw fail(path, `must be a non-empty list of distinct scopes (${SCIM_SCOPE_NAMES.join(', ')})`)
  return scopes
}

const credentialOf = (value: unknown, path: string, fail: Fail) => {
  if (!isObject(value)) throw fail(path, 'must be an object')
  onlyKeys(value, ['id', 'token', 'scopes', 'expiresAt', 'type'], path, fail)
  if (!isIdentifier(value.id))
    throw fail(`${path}.id`, 'must be 1 to 255 characters without surrounding spaces')
  if (value.type !== undefined && value.type !== 'bearer') throw fail(`${path}.type`, 'must be "bearer"')
  const expiresAt = value.expiresAt
  if (expiresAt !== undefined && (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))))
    throw fail(`${path}.expiresAt`, 'must be an ISO 8601 instant')
  return {
    id: value.id,
    token: tokenSource(value.token, `${path}.token`, fail),
    scopes: scopesOf(value.scopes, `${path}.scopes`, fail),
    expiresAt: typeof expiresAt === 'string' ? new Date(expiresAt).toISOString() : null,
  }
}

const connectionOf = (value: unknown, path: string, fail: Fail) => {
  if (!isObject(value)) throw fail(path, 'must be an object')
  onlyKeys(value, ['id', 'provisioningDomainId', 'credentials'], path, fail)
  if (!isIdentifier(value.id) || value.id.startsWith('ba_scim_connection_'))
    throw fail(`${path}.id`, 'must be 1 to 255 characters, not starting with "ba_scim_connection_"')
  const domain = value.provisioningDomainId ?? value.id
  if (!isIdentifier(domain)) throw fail(`${path}.provisioningDomainId`, 'must be an organization id or slug')
  if (!Array.isArray(value.credentials) || value.credentials.length === 0)
    throw fail(`${path}.credentials`, 'must list at least one credential')
  const credentials = value.credentials.map((entry, n) =>
    credentialOf(entry, `${path}.credentials.${n}`, fail),
  )
  if (new Set(credentials.map((c) => c.id)).size !== credentials.length)
    throw fail(`${path}.credentials`, 'must have distinct ids')
  return { id: value.id, provisioningDomainId: domain, credentials }
}

export const parseScimOptions = (value: unknown, fail: Fail): ScimFileOptions => {
  if (value === undefined) return { connections: [] }
  if (!isObject(value)) throw fail('scim', 'must be an object')
  onlyKeys(value, ['connections'], 'scim', fail)
  const list = value.connections ?? []
  if (!Array.isArray(list)) throw fail('scim.connections', 'must be a list')
  const connections = list.map((entry, n) => connectionOf(entry, `scim.connections.${n}`, fail))
  if (new Set(connections.map((c) => c.id)).size !== connections.length)
    throw fail('scim.connections', 'must have distinct ids')
  return { connections }
}

const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex')

/** Reads tokens named by environment variables; a credential whose variable is unset is left out. */
export const resolveScimOptions = (
  options: ScimFileOptions,
  get: (name: string) => string | undefined,
  warnings: string[],
): ScimSettings => ({
  connections: options.connections.map((connection) => ({
    id: connection.id,
    provisioningDomainId: connection.provisioningDomainId,
    credentials: connection.credentials.flatMap((credential) => {
      const token = 'value' in credential.token ? credential.token.value : get(credential.token.env)
      if (!token) {
        warnings.push(`SCIM credential ${connection.id}/${credential.id} has no token: it is not accepted.`)
        return []
      }
      const { id, scopes, expiresAt } = credential
      return [{ id, tokenHash: sha256Hex(token), scopes, expiresAt }]
    }),
  })),
})
