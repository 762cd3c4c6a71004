/// A filtered SCIM list and the caller's credential in ONE statement. An IdP asks "does this
/// userName exist?" before every create: the credential (a managed token's row, or a declared
/// connection's organization) was one statement and the page another, each a round trip and a
/// planned query. Here the credential's lookup is a common table expression and the page joins it
/// laterally, so what the credential is comes from the same snapshot as the page: nothing is kept
/// between requests, and a token revoked or an organization removed is seen by the next request.

import { CompiledQuery, type Kysely, sql } from 'kysely'
import type { Database } from '../database.js'
import { filteredView, filterValue, type ScimUserFilter, type ScimUserView } from './scim-users.repository.js'

/** Who the bearer is, as the statement looks it up: a managed token by its hash, or a declared connection. */
export type ScimPrincipalLookup =
  | { kind: 'credential'; tokenHash: string }
  | { kind: 'connection'; connectionId: string; provisioningDomainId: string }

/** What the lookup found: the organization, and for a managed token its row's facts. */
export type ScimPrincipalFound = {
  organizationId: string
  connectionId: string | null
  credentialId: string | null
  revokedAt: Date | null
  expiresAt: Date | null
  scopes: string | null
}

type Row = {
  p_organization_id: string
  p_connection_id: string | null
  p_credential_id: string | null
  p_revoked_at: Date | null
  p_expires_at: Date | null
  p_scopes: string | null
  total: string | null
} & { [K in keyof ScimUserView]: ScimUserView[K] | null }

/**
 * The principal's one row. A declared connection names its organization by id or slug, the id
 * first (one organization's slug may be another's id), as `organizationOf` in scim-auth.ts does.
 */
const principalSql = (lookup: ScimPrincipalLookup) =>
  lookup.kind === 'credential'
    ? sql`select organization_id, connection_id, credential_id, revoked_at, expires_at, scopes
        from tessera_scim_credentials where token_hash = ${lookup.tokenHash}`
    : sql`select id as organization_id, null::text as connection_id, null::text as credential_id,
        null::timestamptz as revoked_at, null::timestamptz as expires_at, null::text as scopes
        from organizations where id = ${lookup.provisioningDomainId} or slug = ${lookup.provisioningDomainId}
        order by (id = ${lookup.provisioningDomainId}) desc limit 1`

const viewOf = (row: Row): ScimUserView => ({
  user_id: row.user_id as string,
  connection_id: row.connection_id as string,
  organization_id: row.organization_id as string,
  user_name: row.user_name as string,
  external_id: row.external_id,
  active: row.active as boolean,
  created_at: row.created_at as Date,
  updated_at: row.updated_at as Date,
  name: row.name as string,
  email: row.email as string,
})

/** The statement for a lookup, filters and page (values or, for a template, sentinels). */
const statementOf = (
  db: Kysely<Database>,
  lookup: ScimPrincipalLookup,
  filters: readonly ScimUserFilter[],
  page: { offset: number; count: number },
) => {
  const connection =
    lookup.kind === 'credential' ? sql<string>`principal.connection_id` : sql<string>`${lookup.connectionId}`
  // No `*` anywhere: the text is then prepared under a name and planned once per connection.
  const found = filteredView(db, connection, filters)
    .orderBy('scim_users.created_at')
    .orderBy('scim_users.user_id')
    .offset(page.offset)
    .limit(page.count)
    .select(sql<string>`count(scim_users.user_id) over ()`.as('total'))
  return sql<Row>`with principal as (${principalSql(lookup)})
    select principal.organization_id as p_organization_id, principal.connection_id as p_connection_id,
      principal.credential_id as p_credential_id, principal.revoked_at as p_revoked_at,
      principal.expires_at as p_expires_at, principal.scopes as p_scopes, found.user_id, found.connection_id,
      found.organization_id, found.user_name, found.external_id, found.active, found.created_at,
      found.updated_at, found.name, found.email, found.total
    from principal left join lateral (${found}) as found on true`
}

/** A statement's text, and for each of its parameters which input it is. */
type Template = { sql: string; inputs: number[] }

/** Templates by lookup kind and filter attributes; bounded, past it statements are built each time. */
const templates = new Map<string, Template | null>()
const MAX_TEMPLATES = 64

/** Lowercase and untouched by trimming: a filter's sentinel survives `filterValue`. */
const sentinel = (n: number) => `\u0001scim-input-${n}`

/**
 * The inputs in a fixed order (the lookup's, the filters' values, offset, count), and the statement
 * built on sentinels in their place once per shape: building and compiling it with Kysely was a
 * tenth of the server's CPU per filtered list. Each request then only puts its inputs in place.
 */
const templateOf = (
  db: Kysely<Database>,
  lookup: ScimPrincipalLookup,
  filters: readonly ScimUserFilter[],
): Template | null => {
  const key = `${lookup.kind} ${filters.map((filter) => filter.attribute).join(' ')}`
  const known = templates.get(key)
  if (known !== undefined) return known
  const inputs = inputsOf(lookup, filters, { offset: 0, count: 0 }).map((_, n) => sentinel(n))
  const at = new Map(inputs.map((value, n) => [value, n]))
  const compiled = statementOf(
    db,
    lookup.kind === 'credential'
      ? { kind: 'credential', tokenHash: sentinel(0) }
      : { kind: 'connection', connectionId: sentinel(0), provisioningDomainId: sentinel(1) },
    filters.map((filter, n) => ({ ...filter, value: sentinel(n + (lookup.kind === 'credential' ? 1 : 2)) })),
    { offset: inputs.at(-2) as never, count: inputs.at(-1) as never },
  ).compile(db)
  const positions = compiled.parameters.map((value) => at.get(value as string) ?? -1)
  const template = positions.includes(-1) ? null : { sql: compiled.sql, inputs: positions }
  if (templates.size < MAX_TEMPLATES) templates.set(key, template)
  return template
}

const inputsOf = (
  lookup: ScimPrincipalLookup,
  filters: readonly ScimUserFilter[],
  page: { offset: number; count: number },
): unknown[] => [
  ...(lookup.kind === 'credential' ? [lookup.tokenHash] : [lookup.connectionId, lookup.provisioningDomainId]),
  ...filters.map(filterValue),
  page.offset,
  page.count,
]

const rowsOf = async (
  db: Kysely<Database>,
  lookup: ScimPrincipalLookup,
  filters: readonly ScimUserFilter[],
  page: { offset: number; count: number },
): Promise<readonly Row[]> => {
  const template = templateOf(db, lookup, filters)
  if (!template) return (await statementOf(db, lookup, filters, page).execute(db)).rows
  const inputs = inputsOf(lookup, filters, page)
  const parameters = template.inputs.map((n) => inputs[n])
  return (await db.executeQuery<Row>(CompiledQuery.raw(template.sql, parameters))).rows
}

/**
 * The principal (null: no such credential or organization) and the filtered page with how many
 * match in all; `page` null when the page is past the matches (the caller counts them apart).
 */
export const listScimUsersAs = async (
  db: Kysely<Database>,
  lookup: ScimPrincipalLookup,
  filters: readonly ScimUserFilter[],
  page: { offset: number; count: number },
): Promise<{
  principal: ScimPrincipalFound | null
  page: { total: number; rows: ScimUserView[] } | null
}> => {
  const rows = await rowsOf(db, lookup, filters, page)
  const [first] = rows
  if (!first) return { principal: null, page: null }
  const principal: ScimPrincipalFound = {
    organizationId: first.p_organization_id,
    connectionId: first.p_connection_id,
    credentialId: first.p_credential_id,
    revokedAt: first.p_revoked_at,
    expiresAt: first.p_expires_at,
    scopes: first.p_scopes,
  }
  const matched = rows.filter((row) => row.user_id !== null)
  if (matched.length > 0)
    return { principal, page: { total: Number(first.total), rows: matched.map(viewOf) } }
  return { principal, page: page.offset === 0 ? { total: 0, rows: [] } : null }
}
