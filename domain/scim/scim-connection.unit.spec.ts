import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { type ScimConnectionEvent, scimConnectionDecider } from './scim-connection.js'

const { given } = specFor(scimConnectionDecider)
const NOW = '2026-11-28T10:00:00.000Z'
const admin = { kind: 'member' as const, roles: ['admin'] }
const issue = (credentialId: string, manager: object = admin) => ({
  type: 'issue-scim-credential' as const,
  organizationId: 'o1',
  newConnectionId: `ba_scim_connection_${credentialId}`,
  credentialId,
  tokenHash: `hash-${credentialId}`,
  scopes: ['scim.users.read' as const],
  expiresAt: null,
  now: NOW,
  manager: manager as typeof admin,
})
const issued = (credentialId: string): ScimConnectionEvent => ({
  type: 'scim.credential-issued',
  data: {
    organizationId: 'o1',
    connectionId: 'ba_scim_connection_c1',
    credentialId,
    tokenHash: `hash-${credentialId}`,
    scopes: ['scim.users.read'],
    expiresAt: null,
    createdAt: NOW,
  },
})

describe('scim-connection decider', () => {
  it('makes the connection with the first credential and keeps it for the next', () => {
    given([])
      .when(issue('c1'))
      .then([issued('c1')])
    given([issued('c1')])
      .when(issue('c2'))
      .then([issued('c2')])
  })

  it('lets owners, admins and operators manage it, and nobody else', () => {
    given([])
      .when(issue('c1', { kind: 'member', roles: ['owner'] }))
      .then([issued('c1')])
    given([])
      .when(issue('c1', { kind: 'operator' }))
      .then([issued('c1')])
    given([])
      .when(issue('c1', { kind: 'member', roles: ['member'] }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM')
    given([])
      .when(issue('c1', { kind: 'stranger' }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM')
  })

  it('keeps at most five live credentials; a revoked one frees its place', () => {
    const five = ['c1', 'c2', 'c3', 'c4', 'c5'].map(issued)
    given(five).when(issue('c6')).thenThrows('SCIM_CREDENTIAL_LIMIT_REACHED')
    const revoked: ScimConnectionEvent = {
      type: 'scim.credential-revoked',
      data: {
        organizationId: 'o1',
        connectionId: 'ba_scim_connection_c1',
        credentialId: 'c1',
        revokedAt: NOW,
      },
    }
    given([...five, revoked])
      .when(issue('c6'))
      .then([issued('c6')])
  })

  it('revokes a credential once; an unknown one is not found', () => {
    const revoke = { type: 'revoke-scim-credential' as const, credentialId: 'c1', now: NOW, manager: admin }
    const revoked: ScimConnectionEvent = {
      type: 'scim.credential-revoked',
      data: {
        organizationId: 'o1',
        connectionId: 'ba_scim_connection_c1',
        credentialId: 'c1',
        revokedAt: NOW,
      },
    }
    given([issued('c1')])
      .when(revoke)
      .then([revoked])
    given([issued('c1'), revoked])
      .when(revoke)
      .thenThrows('SCIM_CREDENTIAL_ALREADY_REVOKED')
    given([issued('c1')])
      .when({ ...revoke, credentialId: 'c9' })
      .thenThrows('SCIM_CREDENTIAL_NOT_FOUND')
  })
})
