/// An organization's own directory connection: the bearer credentials its owners and admins mint
/// for their identity provider (Okta, Entra ID, ...) to provision people with. Stream:
/// `scim-connection-<organizationId>`; one managed connection per organization, made with its
/// first credential. Credentials are kept as the SHA-256 of the token, shown once when issued.
/// (Connections an operator declares in tessera.config.json are configuration, not this.)

import type { Decider } from '../shared/decider.js'
import { SCIM_ERRORS } from './scim-errors.js'

export const scimConnectionStream = (organizationId: string): string => `scim-connection-${organizationId}`

export const SCIM_SCOPES = [
  'scim.users.read',
  'scim.users.write',
  'scim.groups.read',
  'scim.groups.write',
] as const
export type ScimScope = (typeof SCIM_SCOPES)[number]

/** The plugin's default limit of unexpired, unrevoked credentials per managed connection. */
export const MAX_ACTIVE_CREDENTIALS = 5

/** Who asks: an operator (server key), or a member of the organization with their roles. */
export type ScimManager =
  | { kind: 'operator' }
  | { kind: 'member'; roles: readonly string[] }
  | { kind: 'stranger' }

/// Events

type Ids = { organizationId: string; connectionId: string; credentialId: string }

export type ScimConnectionEvent =
  | {
      type: 'scim.credential-issued'
      data: Ids & { tokenHash: string; scopes: ScimScope[]; expiresAt: string | null; createdAt: string }
    }
  | { type: 'scim.credential-revoked'; data: Ids & { revokedAt: string } }

/// Commands

export type ScimConnectionCommand =
  | {
      type: 'issue-scim-credential'
      organizationId: string
      /** Used only when the organization has no connection yet. */
      newConnectionId: string
      credentialId: string
      tokenHash: string
      scopes: ScimScope[]
      expiresAt: string | null
      now: string
      manager: ScimManager
    }
  | { type: 'revoke-scim-credential'; credentialId: string; now: string; manager: ScimManager }

/// State

export type ScimCredential = {
  credentialId: string
  scopes: ScimScope[]
  expiresAt: string | null
  revoked: boolean
}

export type ScimConnection =
  | { status: 'none' }
  | { status: 'active'; organizationId: string; connectionId: string; credentials: ScimCredential[] }

export const initialState = (): ScimConnection => ({ status: 'none' })

/// Evolve

export const evolve = (state: ScimConnection, event: ScimConnectionEvent): ScimConnection => {
  switch (event.type) {
    case 'scim.credential-issued': {
      const { organizationId, connectionId, credentialId, scopes, expiresAt } = event.data
      const credential = { credentialId, scopes, expiresAt, revoked: false }
      return state.status === 'active'
        ? { ...state, credentials: [...state.credentials, credential] }
        : { status: 'active', organizationId, connectionId, credentials: [credential] }
    }
    case 'scim.credential-revoked':
      return state.status === 'active'
        ? {
            ...state,
            credentials: state.credentials.map((credential) =>
              credential.credentialId === event.data.credentialId
                ? { ...credential, revoked: true }
                : credential,
            ),
          }
        : state
  }
}

/// Decide

/** Owners and admins manage their organization's directory sync; operators any organization's. */
export const mayManageScim = (manager: ScimManager): boolean =>
  manager.kind === 'operator' ||
  (manager.kind === 'member' && manager.roles.some((role) => role === 'owner' || role === 'admin'))

const isLive = (credential: ScimCredential, now: string): boolean =>
  !credential.revoked && (credential.expiresAt === null || credential.expiresAt > now)

const issue = (
  command: Extract<ScimConnectionCommand, { type: 'issue-scim-credential' }>,
  state: ScimConnection,
): ScimConnectionEvent[] => {
  const live = state.status === 'active' ? state.credentials.filter((c) => isLive(c, command.now)) : []
  if (live.length >= MAX_ACTIVE_CREDENTIALS) throw SCIM_ERRORS.error('SCIM_CREDENTIAL_LIMIT_REACHED')
  const { organizationId, credentialId, tokenHash, scopes, expiresAt, now } = command
  const connectionId = state.status === 'active' ? state.connectionId : command.newConnectionId
  return [
    {
      type: 'scim.credential-issued',
      data: { organizationId, connectionId, credentialId, tokenHash, scopes, expiresAt, createdAt: now },
    },
  ]
}

const revoke = (
  command: Extract<ScimConnectionCommand, { type: 'revoke-scim-credential' }>,
  state: ScimConnection,
): ScimConnectionEvent[] => {
  const credential =
    state.status === 'active'
      ? state.credentials.find((c) => c.credentialId === command.credentialId)
      : undefined
  if (state.status !== 'active' || !credential) throw SCIM_ERRORS.error('SCIM_CREDENTIAL_NOT_FOUND')
  if (credential.revoked) throw SCIM_ERRORS.error('SCIM_CREDENTIAL_ALREADY_REVOKED')
  const { organizationId, connectionId } = state
  return [
    {
      type: 'scim.credential-revoked',
      data: { organizationId, connectionId, credentialId: credential.credentialId, revokedAt: command.now },
    },
  ]
}

export const decide = (command: ScimConnectionCommand, state: ScimConnection): ScimConnectionEvent[] => {
  if (!mayManageScim(command.manager)) throw SCIM_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM')
  switch (command.type) {
    case 'issue-scim-credential':
      return issue(command, state)
    case 'revoke-scim-credential':
      return revoke(command, state)
  }
}

export const scimConnectionDecider: Decider<ScimConnectionCommand, ScimConnectionEvent, ScimConnection> = {
  decide,
  evolve,
  initialState,
}
