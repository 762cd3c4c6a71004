/// Who a SCIM call is: the bearer credential it presents, found among the connections declared in
/// the config file (by the token's SHA-256) or among the organizations' own credentials (the inline
/// table, so a revocation holds at its commit on every instance). The answer names the connection,
/// its organization and the credential's scopes; the route's scope is then required, as the
/// plugin's middleware does (`scim.users.read` for GET, `scim.users.write` otherwise).

import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Actor } from '../../domain/shared/metadata.js'
import type { Config } from '../../infra/config/config.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import type { Database } from '../../projections/database.js'
import { findScimCredentialByHash } from '../../projections/scim/scim-inline.js'
import type { ScimPrincipalFound, ScimPrincipalLookup } from '../../projections/scim/scim-principal-list.js'
import { ScimError } from './scim-http.js'

export type ScimPrincipal = {
  connectionId: string
  credentialId: string
  organizationId: string
  scopes: readonly string[]
}

export const MANAGED_CREDENTIAL_PREFIX = 'ba_scim_credential_'

const unauthorized = (detail: string) => new ScimError(401, detail)

const staticCredential = (config: Config, tokenHash: string, now: Date) => {
  const presented = Buffer.from(tokenHash, 'hex')
  for (const connection of config.scim.connections)
    for (const credential of connection.credentials) {
      // Constant-time over the hashes, and every credential is compared, matched or not.
      const same = timingSafeEqual(Buffer.from(credential.tokenHash, 'hex'), presented)
      const live = credential.expiresAt === null || Date.parse(credential.expiresAt) > now.getTime()
      if (same && live) return { connection, credential }
    }
  return null
}

/**
 * A declared connection's organization: its `provisioningDomainId`, an organization's id or slug (the
 * id first, where one organization's slug is another's id). One statement: every SCIM call asks it.
 */
const organizationOf = async (db: Kysely<Database>, domain: string): Promise<string | null> => {
  const rows = await db
    .selectFrom('organizations')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', domain), eb('slug', '=', domain)]))
    .execute()
  return (rows.find((row) => row.id === domain) ?? rows[0])?.id ?? null
}

/** What the bearer presents, before any statement: a managed token's hash, or a declared connection. */
type Presented =
  | { lookup: Extract<ScimPrincipalLookup, { kind: 'credential' }> }
  | {
      lookup: Extract<ScimPrincipalLookup, { kind: 'connection' }>
      declared: { credentialId: string; scopes: readonly string[] }
    }

const presented = (config: Config, token: string, now: Date): Presented => {
  const tokenHash = sha256Hex(token)
  if (token.startsWith(MANAGED_CREDENTIAL_PREFIX)) return { lookup: { kind: 'credential', tokenHash } }
  const found = staticCredential(config, tokenHash, now)
  if (!found) throw unauthorized('Invalid SCIM bearer token')
  const { connection, credential } = found
  return {
    lookup: {
      kind: 'connection',
      connectionId: connection.id,
      provisioningDomainId: connection.provisioningDomainId,
    },
    declared: { credentialId: credential.id, scopes: credential.scopes },
  }
}

/** The principal from what the lookup found: a managed token must be there, unrevoked and unexpired. */
const principalOf = (presented: Presented, found: ScimPrincipalFound | null, now: Date): ScimPrincipal => {
  if (!('declared' in presented)) {
    const live = found && found.revokedAt === null && (found.expiresAt === null || found.expiresAt > now)
    if (!live || found.connectionId === null || found.credentialId === null || found.scopes === null)
      throw unauthorized('Invalid SCIM bearer token')
    return {
      connectionId: found.connectionId,
      credentialId: found.credentialId,
      organizationId: found.organizationId,
      scopes: JSON.parse(found.scopes) as string[],
    }
  }
  if (!found) throw new ScimError(403, 'The SCIM connection names no organization')
  return {
    connectionId: presented.lookup.connectionId,
    credentialId: presented.declared.credentialId,
    organizationId: found.organizationId,
    scopes: presented.declared.scopes,
  }
}

/** The lookup alone, one statement: what every route but the filtered list asks. */
const lookupAlone =
  (db: Kysely<Database>) =>
  async (lookup: ScimPrincipalLookup): Promise<{ principal: ScimPrincipalFound | null }> => {
    if (lookup.kind === 'connection') {
      const organizationId = await organizationOf(db, lookup.provisioningDomainId)
      return { principal: organizationId === null ? null : { ...NOTHING_ELSE, organizationId } }
    }
    const row = await findScimCredentialByHash(db, lookup.tokenHash)
    if (!row) return { principal: null }
    return {
      principal: {
        organizationId: row.organization_id,
        connectionId: row.connection_id,
        credentialId: row.credential_id,
        revokedAt: row.revoked_at,
        expiresAt: row.expires_at,
        scopes: row.scopes,
      },
    }
  }

const NOTHING_ELSE = {
  connectionId: null,
  credentialId: null,
  revokedAt: null,
  expiresAt: null,
  scopes: null,
}

/** The scope a call needs: reads need `.read`, every other method `.write`. */
export const requiredScope = (method: string, url: string): string => {
  const operation = method === 'GET' || method === 'HEAD' ? 'read' : 'write'
  return url.includes('/Groups') ? `scim.groups.${operation}` : `scim.users.${operation}`
}

const principals = new WeakMap<FastifyRequest, ScimPrincipal>()

type GuardContext = { db: Kysely<Database>; config: Config; clock: () => Date }
type Reply = { header(name: string, value: string): unknown }

/**
 * Authenticates the bearer credential and checks the route's scope, the principal looked up by
 * `find`: the lookup alone, or a statement that reads the route's answer with it (the filtered list).
 */
export const authenticateScim = async <Found extends { principal: ScimPrincipalFound | null }>(
  ctx: GuardContext,
  request: FastifyRequest,
  reply: Reply,
  find: (lookup: ScimPrincipalLookup) => Promise<Found>,
): Promise<Found & { principal: ScimPrincipal }> => {
  const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
  if (!token) {
    reply.header('www-authenticate', 'Bearer realm="SCIM"')
    throw unauthorized('SCIM bearer token is required')
  }
  const now = ctx.clock()
  const answered = await (async () => {
    const bearer = presented(ctx.config, token, now)
    const found = await find(bearer.lookup)
    return { ...found, principal: principalOf(bearer, found.principal, now) }
  })().catch((error: unknown) => {
    if (error instanceof ScimError && error.status === 401)
      reply.header('www-authenticate', 'Bearer realm="SCIM"')
    throw error
  })
  const scope = requiredScope(request.method, request.url)
  if (!answered.principal.scopes.includes(scope))
    throw new ScimError(403, `The SCIM bearer token is missing the ${scope} scope`)
  principals.set(request, answered.principal)
  return answered
}

/** A preHandler: authenticates the bearer credential and checks the route's scope. */
export const scimGuard =
  (ctx: GuardContext) =>
  async (request: FastifyRequest, reply: Reply): Promise<void> => {
    await authenticateScim(ctx, request, reply, lookupAlone(ctx.db))
  }

/** The guard's checks for a route that reads its answer with the principal (see authenticateScim). */
export const scimGuardAlone = (ctx: GuardContext, request: FastifyRequest, reply: Reply) =>
  authenticateScim(ctx, request, reply, lookupAlone(ctx.db))

export const scimPrincipalOf = (request: FastifyRequest): ScimPrincipal => {
  const principal = principals.get(request)
  if (!principal) throw new Error('scimPrincipalOf on a route without scimGuard')
  return principal
}

/** The actor SCIM events carry: the connection and the credential it used. */
export const scimActor = (principal: ScimPrincipal): Actor => ({
  type: 'scim',
  connectionId: principal.connectionId,
  credentialId: principal.credentialId,
})
