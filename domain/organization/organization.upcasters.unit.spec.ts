/// Version 1 of the organization's events (roles and team ids as comma-separated text) read as
/// version 2 (arrays): the upcasters, and what the wire still shows of an upcast event.

import { describe, expect, it } from 'vitest'
import { stampEventVersion, upcastEvent } from '../events.js'
import { toPublicEvent } from '../public-events/catalogue.js'
import { fold } from '../shared/decider.js'
import type { EventMetadata } from '../shared/metadata.js'
import type { OrganizationEvent } from './organization.events.js'
import { organizationDecider } from './organization.js'
import { commaSeparated } from './organization.upcasters.js'

const metadata: EventMetadata = {
  actor: { type: 'user', userId: 'u-owner' },
  ip: null,
  userAgent: null,
  correlationId: 'c1',
  causationId: null,
  at: '2026-11-01T00:00:00.000Z',
}
const O = 'o1'
const T0 = '2026-11-01T00:00:00.000Z'
/** As a server wrote them before version 2: no `schemaVersion` in the metadata. */
const stored = (type: string, data: object) => ({ id: `e-${type}`, type, data, metadata })

const oldMemberAdded = stored('organization.member-added', {
  organizationId: O,
  memberId: 'm1',
  userId: 'u1',
  role: 'admin,member',
  createdAt: T0,
  invitationId: null,
  seat: 2,
})
const oldRoleUpdated = stored('organization.member-role-updated', {
  organizationId: O,
  memberId: 'm1',
  userId: 'u1',
  role: 'owner',
  previousRole: 'admin,member',
})
const oldInvitation = (teamId: string | null) =>
  stored('organization.invitation-created', {
    organizationId: O,
    invitationId: 'i1',
    email: 'new@example.com',
    inviteeSubject: 'invitee-1',
    role: 'member',
    teamId,
    inviterId: 'u-owner',
    expiresAt: '2026-11-03T00:00:00.000Z',
    createdAt: T0,
  })

describe('organization events of version 1, as read', () => {
  it('a member added carries its roles as an array, everything else as it was', () => {
    const read = upcastEvent(oldMemberAdded)
    expect(read.data).toEqual({
      organizationId: O,
      memberId: 'm1',
      userId: 'u1',
      roles: ['admin', 'member'],
      createdAt: T0,
      invitationId: null,
      seat: 2,
    })
    expect(read.metadata).toEqual({ ...metadata, schemaVersion: 2 })
  })

  it('a role change carries both the new and the previous roles as arrays', () =>
    expect(upcastEvent(oldRoleUpdated).data).toEqual({
      organizationId: O,
      memberId: 'm1',
      userId: 'u1',
      roles: ['owner'],
      previousRoles: ['admin', 'member'],
    }))

  it('an invitation carries its roles and team ids as arrays; no team is an empty array', () => {
    expect(upcastEvent(oldInvitation('t1,t2')).data).toMatchObject({
      roles: ['member'],
      teamIds: ['t1', 't2'],
    })
    expect(upcastEvent(oldInvitation(null)).data).toMatchObject({ roles: ['member'], teamIds: [] })
    expect(upcastEvent(oldInvitation(null)).data).not.toHaveProperty('teamId')
    expect(upcastEvent(oldInvitation(null)).data).not.toHaveProperty('role')
  })

  it('gives back the exact text it split, spaces and all, so rebuilt read models do not change', () => {
    const spaced = stored('organization.member-added', { ...oldMemberAdded.data, role: 'admin, member' })
    expect(commaSeparated(upcastEvent(spaced).data).role).toBe('admin, member')
    expect(commaSeparated(upcastEvent(oldInvitation('t1,t2')).data).teamId).toBe('t1,t2')
    expect(commaSeparated(upcastEvent(oldInvitation(null)).data).teamId).toBeNull()
  })

  it('leaves an event of the current version, and a type with one version, as they are', () => {
    const current = stampEventVersion(upcastEvent(oldMemberAdded))
    expect(upcastEvent(current)).toBe(current)
    const other = stored('organization.team-created', {
      organizationId: O,
      teamId: 't1',
      name: 'T',
      createdAt: T0,
    })
    expect(upcastEvent(other)).toBe(other)
  })

  it('folds to the state the same history written as version 2 folds to', () => {
    const decider = organizationDecider({} as never)
    const created: OrganizationEvent = {
      type: 'organization.created',
      data: {
        organizationId: O,
        name: 'Acme',
        slug: 'acme',
        logo: null,
        metadata: null,
        createdAt: T0,
        createdBy: 'u1',
      },
    }
    const old = [oldMemberAdded, oldRoleUpdated, oldInvitation('t1,t2')].map(
      (event) => upcastEvent(event) as unknown as OrganizationEvent,
    )
    const written: OrganizationEvent[] = [
      {
        type: 'organization.member-added',
        data: {
          organizationId: O,
          memberId: 'm1',
          userId: 'u1',
          roles: ['admin', 'member'],
          createdAt: T0,
          invitationId: null,
          seat: 2,
        },
      },
      {
        type: 'organization.member-role-updated',
        data: {
          organizationId: O,
          memberId: 'm1',
          userId: 'u1',
          roles: ['owner'],
          previousRoles: ['admin', 'member'],
        },
      },
      {
        type: 'organization.invitation-created',
        data: {
          organizationId: O,
          invitationId: 'i1',
          email: 'new@example.com',
          inviteeSubject: 'invitee-1',
          roles: ['member'],
          teamIds: ['t1', 't2'],
          inviterId: 'u-owner',
          expiresAt: '2026-11-03T00:00:00.000Z',
          createdAt: T0,
        },
      },
    ]
    expect(fold(decider, [created, ...old])).toEqual(fold(decider, [created, ...written]))
    const state = fold(decider, [created, ...old])
    expect(state.status === 'active' && state.members.get('m1')?.role).toBe('owner')
    expect(state.status === 'active' && state.invitations.get('i1')?.teamIds).toEqual(['t1', 't2'])
  })
})

describe('the wire, for an upcast event', () => {
  it('the public feed still sends roles as better-auth text', () => {
    expect(toPublicEvent(upcastEvent(oldMemberAdded))?.data).toEqual({
      organizationId: O,
      memberId: 'm1',
      userId: 'u1',
      role: 'admin,member',
    })
    expect(toPublicEvent(upcastEvent(oldRoleUpdated))?.data).toMatchObject({
      role: 'owner',
      previousRole: 'admin,member',
    })
    expect(toPublicEvent(upcastEvent(oldInvitation('t1')))?.data).toMatchObject({ role: 'member' })
  })
})

describe('a new event', () => {
  it('is stamped with its version when written; one of a type with one version is not', () => {
    const added = stored('organization.member-added', { ...oldMemberAdded.data, roles: ['member'] })
    expect(stampEventVersion(added).metadata.schemaVersion).toBe(2)
    const other = stored('organization.team-created', {})
    expect(stampEventVersion(other)).toBe(other)
  })
})
