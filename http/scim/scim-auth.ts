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

const resolve = async (
  db: Kysely<Database>,
  config: Config,
  token: string,
  now: Date,
): Promise<ScimPrincipal> => {
  const tokenHash = sha256Hex(token)
  if (token.startsWith(MANAGED_CREDENTIAL_PREFIX)) {
    const row = await findScimCredentialByHash(db, tokenHash)
    if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now))
      throw unauthorized('Invalid SCIM bearer token')
    const { connection_id, credential_id, organization_id } = row
    const scopes = JSON.parse(row.scopes) as string[]
    return {
      connectionId: connection_id,
      credentialId: credential_id,
      organizationId: organization_id,
      scopes,
    }
  }
  const found = staticCredential(config, tokenHash, now)
  if (!found) throw unauthorized('Invalid SCIM bearer token')
  const organizationId = await organizationOf(db, found.connection.provisioningDomainId)
  if (!organizationId) throw new ScimError(403, 'The SCIM connection names no organization')
  return {
    connectionId: found.connection.id,
    credentialId: found.credential.id,
    organizationId,
    scopes: found.credential.scopes,
  }
}

/** The scope a call needs: reads need `.read`, every other method `.write`. */
export const requiredScope = (method: string, url: string): string => {
  const operation = method === 'GET' || method === 'HEAD' ? 'read' : 'write'
  return url.includes('/Groups') ? `scim.groups.${operation}` : `scim.users.${operation}`
}

const principals = new WeakMap<FastifyRequest, ScimPrincipal>()

/** A preHandler: authenticates the bearer credential and checks the route's scope. */
export const scimGuard =
  (ctx: { db: Kysely<Database>; config: Config; clock: () => Date }) =>
  async (request: FastifyRequest, reply: { header(name: string, value: string): unknown }): Promise<void> => {
    const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
    if (!token) {
      reply.header('www-authenticate', 'Bearer realm="SCIM"')
      throw unauthorized('SCIM bearer token is required')
    }
    const principal = await resolve(ctx.db, ctx.config, token, ctx.clock()).catch((error: unknown) => {
      if (error instanceof ScimError && error.status === 401)
        reply.header('www-authenticate', 'Bearer realm="SCIM"')
      throw error
    })
    const scope = requiredScope(request.method, request.url)
    if (!principal.scopes.includes(scope))
      throw new ScimError(403, `The SCIM bearer token is missing the ${scope} scope`)
    principals.set(request, principal)
  }

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
