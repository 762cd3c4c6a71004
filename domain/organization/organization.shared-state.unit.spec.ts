/// The organization's state is shared: the kept folded states (command-api/shared/folded-states.ts)
/// hand one state to concurrent decisions and `handle` returns it to callers, so evolving it further
/// must never change a state already handed out. And the member index (`memberIdsByUser`) must agree
/// with the members at every step, or a decision would answer from a member that is not there.

import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { organizationCreated, testOrganizationPolicy } from '../../tests/support/organization-fixtures.js'
import { fold } from '../shared/decider.js'
import type { OrganizationEvent } from './organization.events.js'
import {
  type ActiveOrganization,
  memberOfUser,
  type OrganizationCommand,
  organizationDecider,
} from './organization.js'

const T0 = '2030-01-01T00:00:00.000Z'
const policy = testOrganizationPolicy({ membershipLimit: 10_000, invitationExpiresInSeconds: 3600 })
const decider = organizationDecider(policy)
const O = 'o1'

const created = organizationCreated(O, 'u-0', T0)
const added = (n: number, role = 'member'): OrganizationEvent => ({
  type: 'organization.member-added',
  data: {
    organizationId: O,
    memberId: `m-${n}`,
    userId: `u-${n}`,
    roles: [role],
    createdAt: T0,
    invitationId: null,
  },
})
const removed = (n: number): OrganizationEvent => ({
  type: 'organization.member-removed',
  data: { organizationId: O, memberId: `m-${n}`, userId: `u-${n}`, reason: 'removed' },
})
const addMember = (n: number): OrganizationCommand => ({
  type: 'add-member',
  userExists: true,
  actorUserId: null,
  seat: null,
  memberId: `m-${n}`,
  userId: `u-${n}`,
  roles: ['member'],
  teamId: null,
  teamMemberId: `tm-${n}`,
  now: T0,
})

const active = (history: readonly OrganizationEvent[]) => {
  const state = fold(decider, history)
  if (state.status !== 'active') throw new Error('the organization should be there')
  return state
}

/** Everything a holder of the state can read, as plain data. */
const contents = (state: ActiveOrganization) => ({
  members: [...state.members],
  byUser: [...state.memberIdsByUser],
  invitations: [...state.invitations],
  teams: [...state.teams].map(([id, team]) => [id, team.name, [...team.userIds]]),
  roles: [...state.roles],
})

describe('organization state, shared between commands', () => {
  it('a state handed out never changes when later events are folded onto it', () => {
    const held = active([created, added(0, 'owner'), added(1), added(2)])
    const before = structuredClone(contents(held))
    const later: OrganizationEvent[] = [
      added(3),
      removed(1),
      {
        type: 'organization.member-role-updated',
        data: {
          organizationId: O,
          memberId: 'm-2',
          userId: 'u-2',
          roles: ['admin'],
          previousRoles: ['member'],
        },
      },
      {
        type: 'organization.team-created',
        data: { organizationId: O, teamId: 't1', name: 'T', createdAt: T0 },
      },
      {
        type: 'organization.invitation-created',
        data: {
          organizationId: O,
          invitationId: 'i1',
          email: 'x@example.com',
          inviteeSubject: 's',
          roles: ['member'],
          teamIds: [],
          inviterId: 'u-0',
          expiresAt: T0,
          createdAt: T0,
        },
      },
    ]
    const after = later.reduce(decider.evolve, held as ReturnType<typeof decider.evolve>)
    expect(contents(held)).toEqual(before)
    expect(memberOfUser(held, 'u-1')?.memberId).toBe('m-1')
    expect(memberOfUser(held, 'u-3')).toBeUndefined()
    // The holder still decides on what it holds, and the later state on what it holds.
    expect(decider.decide(addMember(3), held)).toHaveLength(1)
    expect(() => decider.decide(addMember(3), after)).toThrow()
    expect(decider.decide(addMember(1), after)).toHaveLength(1)
  })

  it('the member index follows every add and removal over thousands of members', () => {
    const history = [created, added(0, 'owner')]
    for (let n = 1; n <= 3_000; n++) history.push(added(n))
    for (let n = 1; n <= 3_000; n += 3) history.push(removed(n))
    const state = active(history)
    expect(state.members.size).toBe(2_001)
    expect(state.memberIdsByUser.size).toBe(2_001)
    for (const [memberId, member] of state.members)
      expect(state.memberIdsByUser.get(member.userId)).toBe(memberId)
    // Members keep the order they joined in (an organization's deletion removes them in that order).
    expect([...state.members.keys()].slice(0, 3)).toEqual(['m-0', 'm-2', 'm-3'])
  })

  const many = [created, added(0, 'owner'), ...Array.from({ length: 2_000 }, (_, n) => added(n + 1))]

  it('refuses the first and the last of 2,000 members as already there', () => {
    specFor(decider)
      .given(many)
      .when(addMember(1))
      .thenThrows('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION')
    specFor(decider)
      .given(many)
      .when(addMember(2_000))
      .thenThrows('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION')
  })

  it('adds again a user whose membership was removed', () =>
    specFor(decider)
      .given([...many, removed(7)])
      .when(addMember(7))
      .then([
        {
          type: 'organization.member-added',
          data: {
            organizationId: O,
            memberId: 'm-7',
            userId: 'u-7',
            roles: ['member'],
            createdAt: T0,
            invitationId: null,
          },
        },
      ]))
})
