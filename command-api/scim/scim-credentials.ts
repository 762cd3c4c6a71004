/// An organization's own SCIM credentials, minted, listed and revoked by its owners and admins (or
/// an operator with a server key). A token is `<credentialId>.<secret>` as the plugin's managed
/// tokens are; only its SHA-256 is kept, and it is shown once, in the answer that mints it.

import { AUTH_ERRORS, invalidBodyField } from '../../domain/errors.js'
import {
  mayManageScim,
  SCIM_SCOPES,
  type ScimManager,
  type ScimScope,
  scimConnectionDecider,
  scimConnectionStream,
} from '../../domain/scim/scim-connection.js'
import { SCIM_ERRORS } from '../../domain/scim/scim-errors.js'
import type { Actor, RequestOrigin } from '../../domain/shared/metadata.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import { MANAGED_CREDENTIAL_PREFIX } from '../../http/scim/scim-auth.js'
import { ALPHANUMERIC, randomToken, sha256Hex } from '../../infra/crypto/tokens.js'
import { findMember } from '../../projections/organizations/organizations.repository.js'
import { type ScimCredentialRow, scimCredentialsOf } from '../../projections/scim/scim-inline.js'
import {
  type ConnectionDirectory,
  connectionDirectory,
} from '../../projections/scim/scim-users.repository.js'
import type { CommandContext } from '../context.js'

export const MANAGED_CONNECTION_PREFIX = 'ba_scim_connection_'

export type CredentialCaller =
  | { kind: 'user'; userId: string; activeOrganizationId: string | null }
  | { kind: 'server'; actor: Actor }

const organizationOf = (caller: CredentialCaller, organizationId: string | undefined): string => {
  const id = organizationId ?? (caller.kind === 'user' ? caller.activeOrganizationId : null)
  if (!id) throw AUTH_ERRORS.error('NO_ACTIVE_ORGANIZATION')
  return id
}

const managerOf = async (
  ctx: CommandContext,
  caller: CredentialCaller,
  organizationId: string,
): Promise<ScimManager> => {
  if (caller.kind === 'server') return { kind: 'operator' }
  const member = await findMember(ctx.db, organizationId, caller.userId)
  return member
    ? { kind: 'member', roles: member.role.split(',').map((role) => role.trim()) }
    : { kind: 'stranger' }
}

const actorOf = (caller: CredentialCaller): Actor =>
  caller.kind === 'user' ? { type: 'user', userId: caller.userId } : caller.actor

export const credentialJson = (row: ScimCredentialRow, now: Date) => ({
  credentialId: row.credential_id,
  status:
    row.revoked_at !== null
      ? 'revoked'
      : row.expires_at !== null && row.expires_at <= now
        ? 'expired'
        : 'active',
  scopes: JSON.parse(row.scopes) as string[],
  expiresAt: row.expires_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  revokedAt: row.revoked_at?.toISOString() ?? null,
})

const connectionJson = (organizationId: string, connectionId: string) => ({
  connectionId,
  provisioningDomainId: organizationId,
  status: 'active' as const,
})

export const mintScimCredential = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: CredentialCaller,
  input: { organizationId?: string; scopes?: ScimScope[]; expiresAt?: string },
) => {
  const organizationId = organizationOf(caller, input.organizationId)
  const credentialId = `${MANAGED_CREDENTIAL_PREFIX}${randomToken(32, ALPHANUMERIC)}`
  const token = `${credentialId}.${randomToken(48, ALPHANUMERIC)}`
  const now = ctx.clock()
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null
  if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime())
    throw invalidBodyField('expiresAt', 'must be in the future')
  const { events } = await ctx.handle(
    scimConnectionDecider,
    scimConnectionStream(organizationId),
    {
      type: 'issue-scim-credential',
      organizationId,
      newConnectionId: `${MANAGED_CONNECTION_PREFIX}${randomToken(32, ALPHANUMERIC)}`,
      credentialId,
      tokenHash: sha256Hex(token),
      scopes: input.scopes ?? [...SCIM_SCOPES],
      expiresAt,
      now: now.toISOString(),
      manager: await managerOf(ctx, caller, organizationId),
    },
    { metadata: metadataFor(origin, actorOf(caller), now) },
  )
  const issued = events[0]
  if (issued?.type !== 'scim.credential-issued') throw new Error('no credential was issued')
  const row = (await scimCredentialsOf(ctx.db, organizationId)).find(
    (found) => found.credential_id === credentialId,
  )
  if (!row) throw new Error('the issued credential is not recorded')
  return {
    connection: connectionJson(organizationId, issued.data.connectionId),
    credential: credentialJson(row, now),
    token,
  }
}

export const revokeScimCredential = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: CredentialCaller,
  input: { organizationId?: string; credentialId: string },
) => {
  const organizationId = organizationOf(caller, input.organizationId)
  const now = ctx.clock()
  await ctx.handle(
    scimConnectionDecider,
    scimConnectionStream(organizationId),
    {
      type: 'revoke-scim-credential',
      credentialId: input.credentialId,
      now: now.toISOString(),
      manager: await managerOf(ctx, caller, organizationId),
    },
    { metadata: metadataFor(origin, actorOf(caller), now) },
  )
  const row = (await scimCredentialsOf(ctx.db, organizationId)).find(
    (found) => found.credential_id === input.credentialId,
  )
  if (!row) throw new Error('the revoked credential is not recorded')
  return { credential: credentialJson(row, now) }
}

/** The organization's connection and its credentials (never a token), for its owners and admins. */
export const listScimConnections = async (
  ctx: CommandContext,
  caller: CredentialCaller,
  input: { organizationId?: string },
) => {
  const organizationId = organizationOf(caller, input.organizationId)
  const manager = await managerOf(ctx, caller, organizationId)
  if (!mayManageScim(manager)) throw SCIM_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM')
  const rows = await scimCredentialsOf(ctx.db, organizationId)
  const now = ctx.clock()
  const first = rows[0]
  if (!first) return { connections: [] }
  const directory = await connectionDirectory(ctx.db, organizationId, first.connection_id)
  return {
    connections: [
      {
        ...connectionJson(organizationId, first.connection_id),
        credentials: rows.map((row) => credentialJson(row, now)),
        ...directoryJson(directory),
      },
    ],
  }
}

/** Beyond the plugin's answer: what the connection provisioned, for the portal's Directory sync. */
const directoryJson = (directory: ConnectionDirectory) => ({
  lastSyncAt: directory.lastSyncAt?.toISOString() ?? null,
  provisioned: { total: directory.total, active: directory.active },
  latestPeople: directory.latest.map((person) => ({
    userId: person.user_id,
    name: person.name,
    email: person.email,
    active: person.active,
    updatedAt: person.updated_at.toISOString(),
  })),
})
