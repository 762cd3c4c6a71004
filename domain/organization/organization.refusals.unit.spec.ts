/// The refusals the organization use cases used to make themselves against the read models, now
/// decided here only, in the words the API answered with.

import { describe, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import type { OrganizationCommand, OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent } from './organization.events.js'
import { organizationDecider } from './organization.js'

const T0 = '2030-01-01T00:00:00.000Z'
const O = 'o1'

const policy: OrganizationPolicy = {
  creatorRole: 'owner',
  membershipLimit: 100,
  invitationLimit: 100,
  invitationExpiresInSeconds: 48 * 3600,
  teams: {
    enabled: true,
    defaultTeam: false,
    maximumTeams: null,
    maximumMembersPerTeam: null,
    allowRemovingAllTeams: false,
  },
  allowUserToCreateOrganization: true,
  disableOrganizationDeletion: false,
  requireEmailVerificationOnInvitation: false,
  dynamicRoles: null,
}

const given = (history: readonly OrganizationEvent[], under: Partial<OrganizationPolicy> = {}) =>
  specFor(organizationDecider({ ...policy, ...under })).given(history)

const memberAdded = (memberId: string, userId: string, role: string): OrganizationEvent => ({
  type: 'organization.member-added',
  data: { organizationId: O, memberId, userId, roles: role.split(','), createdAt: T0, invitationId: null },
})
const acme: OrganizationEvent[] = [
  {
    type: 'organization.created',
    data: {
      organizationId: O,
      name: 'Acme',
      slug: 'acme',
      logo: null,
      metadata: null,
      createdAt: T0,
      createdBy: 'u-owner',
    },
  },
  memberAdded('m-owner', 'u-owner', 'owner'),
  memberAdded('m-member', 'u-member', 'member'),
]
const invited: OrganizationEvent = {
  type: 'organization.invitation-created',
  data: {
    organizationId: O,
    invitationId: 'i1',
    email: 'new@example.com',
    inviteeSubject: 'invitee-1',
    roles: ['member'],
    teamIds: [],
    inviterId: 'u-owner',
    expiresAt: '2030-01-03T00:00:00.000Z',
    createdAt: T0,
  },
}

describe('organization: refusals decided once', () => {
  const answer = (type: 'accept-invitation' | 'reject-invitation', emailVerified: boolean) =>
    ({
      type,
      invitationId: 'i1',
      userId: 'u-new',
      email: 'New@Example.com',
      emailVerified,
      memberId: 'm-new',
      seat: null,
      teamMemberIds: [],
      now: T0,
    }) as OrganizationCommand

  it('an unverified invitee neither accepts nor rejects while verification is required', () => {
    const required = { requireEmailVerificationOnInvitation: true }
    for (const type of ['accept-invitation', 'reject-invitation'] as const) {
      given([...acme, invited], required)
        .when(answer(type, false))
        .thenThrows('EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION', { status: 403 })
      given([...acme, invited])
        .when(answer(type, false))
        .then(expectAnswered(type))
      given([...acme, invited], required)
        .when(answer(type, true))
        .then(expectAnswered(type))
    }
  })

  it('a rejection of an invitation that is not there is worded as better-auth words it', () => {
    const words = { status: 400, message: 'Invitation not found!' }
    given(acme).when(answer('reject-invitation', true)).thenThrows('INVITATION_NOT_FOUND', words)
    // The id names no invitation, so no organization either.
    given([]).when(answer('reject-invitation', true)).thenThrows('INVITATION_NOT_FOUND', words)
  })

  const create: OrganizationCommand = {
    type: 'create-organization',
    organizationId: O,
    name: 'Acme',
    slug: 'acme',
    logo: null,
    metadata: null,
    userId: 'u-owner',
    byServer: false,
    memberId: 'm-owner',
    seat: null,
    defaultTeam: { teamId: 't', teamMemberId: 'tm' },
    now: T0,
  }
  it('only the server creates organizations when users may not', () => {
    given([], { allowUserToCreateOrganization: false })
      .when(create)
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION', { status: 403 })
    given([], { allowUserToCreateOrganization: false })
      .when({ ...create, byServer: true })
      .then(acme.slice(0, 2))
  })

  it('deletion, when disabled, is refused before the organization is looked at', () => {
    const remove: OrganizationCommand = { type: 'delete-organization', actorUserId: 'u-owner' }
    const disabled = { disableOrganizationDeletion: true }
    const words = { status: 404, message: 'Organization deletion is disabled' }
    given(acme, disabled).when(remove).thenThrows('ORGANIZATION_DELETION_DISABLED', words)
    given([], disabled).when(remove).thenThrows('ORGANIZATION_DELETION_DISABLED', words)
  })

  const roleChange = (actorUserId: string | null, memberElsewhere: boolean): OrganizationCommand => ({
    type: 'update-member-role',
    actorUserId,
    memberId: 'm-other-org',
    memberElsewhere,
    roles: ['admin'],
  })
  it("a member id of another organization is not the caller's to update; an unknown one is not found", () => {
    given(acme).when(roleChange('u-owner', true)).thenThrows('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER')
    given(acme).when(roleChange('u-owner', false)).thenThrows('MEMBER_NOT_FOUND')
    given(acme).when(roleChange('u-stranger', true)).thenThrows('MEMBER_NOT_FOUND')
    // An organization that is not there: the caller is no member of it; the server names a member elsewhere.
    given([]).when(roleChange('u-owner', true)).thenThrows('MEMBER_NOT_FOUND')
    given([]).when(roleChange(null, true)).thenThrows('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER')
    given([]).when(roleChange(null, false)).thenThrows('MEMBER_NOT_FOUND')
  })

  it('an address that names no member is not found', () =>
    given(acme)
      .when({ type: 'remove-member', actorUserId: 'u-owner', target: { userId: null } })
      .thenThrows('MEMBER_NOT_FOUND'))

  const add = (teamId: string | null, userExists: boolean): OrganizationCommand => ({
    type: 'add-member',
    actorUserId: null,
    memberId: 'm-new',
    userId: 'u-new',
    userExists,
    seat: null,
    roles: ['member'],
    teamId,
    teamMemberId: 'tm-new',
    now: T0,
  })
  it('add-member refuses a team with teams off, then an unknown user, before the organization', () => {
    const teamsOff = { teams: { ...policy.teams, enabled: false } }
    given([], teamsOff).when(add('t1', true)).thenThrows('TEAMS_NOT_ENABLED', { status: 400 })
    given([]).when(add(null, false)).thenThrows('USER_NOT_FOUND', { status: 400, message: 'User not found' })
    given([]).when(add(null, true)).thenThrows('ORGANIZATION_NOT_FOUND')
    given(acme).when(add(null, false)).thenThrows('USER_NOT_FOUND', { status: 400 })
  })

  it('a team that is not in the organization is not found, before who asks is checked', () => {
    const rename: OrganizationCommand = {
      type: 'update-team',
      actorUserId: 'u-member',
      teamId: 't-elsewhere',
      name: 'X',
      now: T0,
    }
    given(acme).when(rename).thenThrows('TEAM_NOT_FOUND')
    given([]).when(rename).thenThrows('TEAM_NOT_FOUND')
  })
})

const expectAnswered = (type: 'accept-invitation' | 'reject-invitation'): OrganizationEvent[] =>
  type === 'reject-invitation'
    ? [
        {
          type: 'organization.invitation-rejected',
          data: { organizationId: O, invitationId: 'i1', inviteeSubject: 'invitee-1', userId: 'u-new' },
        },
      ]
    : [
        {
          type: 'organization.invitation-accepted',
          data: {
            organizationId: O,
            invitationId: 'i1',
            inviteeSubject: 'invitee-1',
            userId: 'u-new',
            memberId: 'm-new',
          },
        },
        {
          type: 'organization.member-added',
          data: {
            organizationId: O,
            memberId: 'm-new',
            userId: 'u-new',
            roles: ['member'],
            createdAt: T0,
            invitationId: 'i1',
          },
        },
      ]
