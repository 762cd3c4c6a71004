import { describe, expect, it } from 'vitest'
import { specFor } from '../../tests/support/given-when-then.js'
import { testOrganizationPolicy } from '../../tests/support/organization-fixtures.js'
import type { OrganizationPolicy } from './organization.commands.js'
import type { OrganizationEvent } from './organization.events.js'
import { type OrganizationCommand, organizationClaims, organizationDecider } from './organization.js'

const T0 = '2030-01-01T00:00:00.000Z'
const HOUR = 3_600_000
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR).toISOString()

const policy = testOrganizationPolicy()
const decider = organizationDecider(policy)
/** The history, under the default policy or the one a test configures. */
const given = (history: readonly OrganizationEvent[], under: OrganizationPolicy = policy) =>
  specFor(organizationDecider(under)).given(history)

const O = 'o1'
const created: OrganizationEvent = {
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
}
const memberAdded = (memberId: string, userId: string, role: string): OrganizationEvent => ({
  type: 'organization.member-added',
  data: { organizationId: O, memberId, userId, roles: role.split(','), createdAt: T0, invitationId: null },
})
const teamCreated = (teamId: string, name = teamId): OrganizationEvent => ({
  type: 'organization.team-created',
  data: { organizationId: O, teamId, name, createdAt: T0 },
})
const teamMemberAdded = (teamId: string, userId: string): OrganizationEvent => ({
  type: 'organization.team-member-added',
  data: { organizationId: O, teamId, teamMemberId: `tm-${teamId}-${userId}`, userId, createdAt: T0 },
})
const invited = (
  invitationId: string,
  email: string,
  role = 'member',
  teamId: string | null = null,
): OrganizationEvent => ({
  type: 'organization.invitation-created',
  data: {
    organizationId: O,
    invitationId,
    email,
    inviteeSubject: `invitee-${email}`,
    roles: role.split(','),
    teamIds: teamId ? teamId.split(',') : [],
    inviterId: 'u-owner',
    expiresAt: at(48),
    createdAt: T0,
  },
})

const invitedBy = (inviterId: string, event: OrganizationEvent): OrganizationEvent =>
  ({ ...event, data: { ...event.data, inviterId } }) as OrganizationEvent

/** An organization with an owner, an admin and a member. */
const acme = [
  created,
  memberAdded('m-owner', 'u-owner', 'owner'),
  memberAdded('m-admin', 'u-admin', 'admin'),
  memberAdded('m-member', 'u-member', 'member'),
]

describe('organization: create', () => {
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
    defaultTeam: { teamId: 't-default', teamMemberId: 'tm-1' },
    now: T0,
  }

  it('makes the creator its owner and, with teams on, a default team named after it that holds them', () =>
    given([])
      .when(create)
      .then([
        created,
        memberAdded('m-owner', 'u-owner', 'owner'),
        teamCreated('t-default', 'Acme'),
        {
          type: 'organization.team-member-added',
          data: {
            organizationId: O,
            teamId: 't-default',
            teamMemberId: 'tm-1',
            userId: 'u-owner',
            createdAt: T0,
          },
        },
      ]))

  it('gives the creator the configured creator role, and no team with teams off', () =>
    given([], { ...policy, creatorRole: 'admin', teams: { ...policy.teams, enabled: false } })
      .when(create)
      .then([created, memberAdded('m-owner', 'u-owner', 'admin')]))

  it('cannot create the same organization twice', () =>
    given([created]).when(create).thenThrows('ORGANIZATION_ALREADY_EXISTS'))

  it('claims its slug, moves the claim on a new slug and releases it on deletion', () => {
    expect(organizationClaims([created])).toEqual([
      { op: 'claim', scope: 'organization.slug', value: 'acme', owner: O },
    ])
    const renamed = decider.decide(
      { type: 'update-organization', actorUserId: 'u-owner', slug: 'acme-2' },
      acme.reduce(decider.evolve, decider.initialState()),
    )
    expect(organizationClaims(renamed)).toEqual([
      { op: 'release', scope: 'organization.slug', value: 'acme', owner: O },
      { op: 'claim', scope: 'organization.slug', value: 'acme-2', owner: O },
    ])
  })

  it("records the creator's membership seat, which the append claims", () => {
    const [, joined] = decider.decide({ ...create, seat: 2 }, decider.initialState())
    expect(joined).toEqual({
      ...memberAdded('m-owner', 'u-owner', 'owner'),
      data: { ...memberAdded('m-owner', 'u-owner', 'owner').data, seat: 2 },
    })
    expect(organizationClaims(joined ? [joined] : [])).toEqual([
      { op: 'claim', scope: 'organization.membership-seat', value: 'u-owner:2', owner: O },
    ])
  })

  it('releases the seat of every membership that ends (leaving, removal, deletion); none without a seat', () => {
    const seated = (event: OrganizationEvent, seat: number) =>
      ({ ...event, data: { ...event.data, seat } }) as OrganizationEvent
    const history = [
      created,
      seated(memberAdded('m-owner', 'u-owner', 'owner'), 0),
      seated(memberAdded('m-admin', 'u-admin', 'admin'), 4),
      memberAdded('m-member', 'u-member', 'member'),
    ]
    const state = history.reduce(decider.evolve, decider.initialState())
    const left = decider.decide({ type: 'leave-organization', userId: 'u-admin' }, state)
    expect(organizationClaims(left)).toEqual([
      { op: 'release', scope: 'organization.membership-seat', value: 'u-admin:4', owner: O },
    ])
    expect(
      organizationClaims(decider.decide({ type: 'leave-organization', userId: 'u-member' }, state)),
    ).toEqual([])
    const deleted = decider.decide({ type: 'delete-organization', actorUserId: 'u-owner' }, state)
    expect(organizationClaims(deleted)).toEqual([
      { op: 'release', scope: 'organization.membership-seat', value: 'u-owner:0', owner: O },
      { op: 'release', scope: 'organization.membership-seat', value: 'u-admin:4', owner: O },
      { op: 'release', scope: 'organization.slug', value: 'acme', owner: O },
    ])
  })
})

describe('organization: update and delete', () => {
  it('lets an admin update', () =>
    given(acme)
      .when({ type: 'update-organization', actorUserId: 'u-admin', name: 'Acme Inc' })
      .then([
        {
          type: 'organization.updated',
          data: {
            organizationId: O,
            name: 'Acme Inc',
            slug: 'acme',
            previousSlug: 'acme',
            logo: null,
            metadata: null,
          },
        },
      ]))
  it('refuses a member', () =>
    given(acme)
      .when({ type: 'update-organization', actorUserId: 'u-member', name: 'X' })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION'))
  it('refuses a non-member', () =>
    given(acme)
      .when({ type: 'update-organization', actorUserId: 'u-stranger', name: 'X' })
      .thenThrows('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION'))
  it('lets only an owner delete (an admin cannot)', () =>
    given(acme)
      .when({ type: 'delete-organization', actorUserId: 'u-admin' })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION'))
  it('ends every membership when deleted', () =>
    given(acme)
      .when({ type: 'delete-organization', actorUserId: 'u-owner' })
      .then([
        ...['owner', 'admin', 'member'].map(
          (who): OrganizationEvent => ({
            type: 'organization.member-removed',
            data: {
              organizationId: O,
              memberId: `m-${who}`,
              userId: `u-${who}`,
              reason: 'organization-deleted',
            },
          }),
        ),
        { type: 'organization.deleted', data: { organizationId: O, slug: 'acme' } },
      ]))
  it('is gone once deleted', () =>
    given([...acme, { type: 'organization.deleted', data: { organizationId: O, slug: 'acme' } }])
      .when({ type: 'update-organization', actorUserId: 'u-owner', name: 'X' })
      .thenThrows('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION'))
})

describe('organization: the last owner', () => {
  it('cannot leave', () =>
    given(acme)
      .when({ type: 'leave-organization', userId: 'u-owner' })
      .thenThrows('YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER'))
  it('cannot be removed', () =>
    given(acme)
      .when({ type: 'remove-member', actorUserId: 'u-owner', target: { memberId: 'm-owner' } })
      .thenThrows('YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER'))
  it('cannot demote themselves', () =>
    given(acme)
      .when({
        type: 'update-member-role',
        memberElsewhere: false,
        actorUserId: 'u-owner',
        memberId: 'm-owner',
        roles: ['admin'],
      })
      .thenThrows('YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER'))
  it('can leave once a second owner exists', () =>
    given([...acme, memberAdded('m-owner2', 'u-owner2', 'owner')])
      .when({ type: 'leave-organization', userId: 'u-owner' })
      .then([
        {
          type: 'organization.member-removed',
          data: { organizationId: O, memberId: 'm-owner', userId: 'u-owner', reason: 'left' },
        },
      ]))
  it('counts an owner among several roles ("admin,owner")', () =>
    given([...acme, memberAdded('m-co', 'u-co', 'admin,owner')])
      .when({ type: 'leave-organization', userId: 'u-owner' })
      .then([
        {
          type: 'organization.member-removed',
          data: { organizationId: O, memberId: 'm-owner', userId: 'u-owner', reason: 'left' },
        },
      ]))
})

describe('organization: members', () => {
  it('an admin removes a member', () =>
    given(acme)
      .when({ type: 'remove-member', actorUserId: 'u-admin', target: { userId: 'u-member' } })
      .then([
        {
          type: 'organization.member-removed',
          data: { organizationId: O, memberId: 'm-member', userId: 'u-member', reason: 'removed' },
        },
      ]))
  it('a member cannot remove anyone (401, as better-auth)', () =>
    given(acme)
      .when({ type: 'remove-member', actorUserId: 'u-member', target: { memberId: 'm-admin' } })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER'))
  it('an admin cannot remove an owner', () =>
    given([...acme, memberAdded('m-owner2', 'u-owner2', 'owner')])
      .when({ type: 'remove-member', actorUserId: 'u-admin', target: { memberId: 'm-owner' } })
      .thenThrows('YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER'))
  it("an admin cannot change the owner's role, nor make an owner", () => {
    given(acme)
      .when({
        type: 'update-member-role',
        memberElsewhere: false,
        actorUserId: 'u-admin',
        memberId: 'm-owner',
        roles: ['member'],
      })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER')
    given(acme)
      .when({
        type: 'update-member-role',
        memberElsewhere: false,
        actorUserId: 'u-admin',
        memberId: 'm-member',
        roles: ['owner'],
      })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER')
  })
  it('an owner promotes a member; several roles are kept together', () =>
    given(acme)
      .when({
        type: 'update-member-role',
        memberElsewhere: false,
        actorUserId: 'u-owner',
        memberId: 'm-member',
        roles: ['admin', 'member'],
      })
      .then([
        {
          type: 'organization.member-role-updated',
          data: {
            organizationId: O,
            memberId: 'm-member',
            userId: 'u-member',
            roles: ['admin', 'member'],
            previousRoles: ['member'],
          },
        },
      ]))
  it('refuses a role nobody defined', () =>
    given(acme)
      .when({
        type: 'update-member-role',
        memberElsewhere: false,
        actorUserId: 'u-owner',
        memberId: 'm-member',
        roles: ['wizard'],
      })
      .thenThrows('ROLE_NOT_FOUND'))
  it('stops at the membership limit (the server adds members too)', () =>
    given(acme, { ...policy, membershipLimit: 3 })
      .when({
        type: 'add-member',
        userExists: true,
        actorUserId: null,
        seat: null,
        memberId: 'm-4',
        userId: 'u-4',
        roles: ['member'],
        teamId: null,
        teamMemberId: 'tm-4',
        now: T0,
      })
      .thenThrows('ORGANIZATION_MEMBERSHIP_LIMIT_REACHED'))
  it('the server adds a member', () =>
    given(acme)
      .when({
        type: 'add-member',
        userExists: true,
        actorUserId: null,
        seat: null,
        memberId: 'm-4',
        userId: 'u-4',
        roles: ['admin'],
        teamId: null,
        teamMemberId: 'tm-4',
        now: T0,
      })
      .then([memberAdded('m-4', 'u-4', 'admin')]))
  it('does not add someone twice', () =>
    given(acme)
      .when({
        type: 'add-member',
        userExists: true,
        actorUserId: null,
        seat: null,
        memberId: 'm-4',
        userId: 'u-member',
        roles: ['member'],
        teamId: null,
        teamMemberId: 'tm-4',
        now: T0,
      })
      .thenThrows('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION'))
  it("answers an existing member before an unknown team (better-auth's order)", () =>
    given(acme)
      .when({
        type: 'add-member',
        userExists: true,
        actorUserId: null,
        seat: null,
        memberId: 'm-4',
        userId: 'u-member',
        roles: ['member'],
        teamId: 'no-such-team',
        teamMemberId: 'tm-4',
        now: T0,
      })
      .thenThrows('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION'))
})

describe('organization: invitations', () => {
  const invite = (
    actorUserId: string,
    roles: string[],
    extra: Partial<OrganizationCommand> = {},
  ): OrganizationCommand =>
    ({
      type: 'invite-member',
      actorUserId,
      invitationId: 'i1',
      email: 'new@example.com',
      inviteeSubject: 'invitee-new@example.com',
      roles,
      teamIds: [],
      resend: false,
      inviteeUserId: null,
      now: T0,
      ...extra,
    }) as OrganizationCommand
  const accept = (now: string, email = 'New@Example.com', extra: Partial<OrganizationCommand> = {}) =>
    ({
      type: 'accept-invitation',
      invitationId: 'i1',
      userId: 'u-new',
      email,
      emailVerified: false,
      memberId: 'm-new',
      seat: null,
      teamMemberIds: ['tm-new'],
      now,
      ...extra,
    }) as OrganizationCommand

  it('an admin invites a member, valid 48 hours', () =>
    given(acme)
      .when(invite('u-admin', ['member']))
      .then([invitedBy('u-admin', invited('i1', 'new@example.com'))]))
  it('a member cannot invite', () =>
    given(acme)
      .when(invite('u-member', ['member']))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION'))
  it('an admin cannot invite an owner', () =>
    given(acme)
      .when(invite('u-admin', ['owner']))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE'))
  it('an owner can invite an owner', () =>
    given(acme)
      .when(invite('u-owner', ['owner']))
      .then([invited('i1', 'new@example.com', 'owner')]))
  it('refuses a second pending invitation to one address, and renews it on resend', () => {
    given([...acme, invited('i0', 'new@example.com')])
      .when(invite('u-admin', ['member']))
      .thenThrows('USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION')
    given([...acme, invited('i0', 'new@example.com')])
      .when(invite('u-admin', ['member'], { now: at(1), resend: true }))
      .then([
        {
          type: 'organization.invitation-renewed',
          data: {
            organizationId: O,
            invitationId: 'i0',
            inviteeSubject: 'invitee-new@example.com',
            expiresAt: at(49),
          },
        },
      ])
  })
  it('refuses to invite a member', () =>
    given(acme)
      .when(invite('u-admin', ['member'], { inviteeUserId: 'u-member' }))
      .thenThrows('USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION'))
  it('refuses an unknown team', () =>
    given(acme)
      .when(invite('u-admin', ['member'], { teamIds: ['t-x'] }))
      .thenThrows('TEAM_NOT_FOUND'))

  it("accepting creates the member with the invitation's role and team, in the same decision", () =>
    given([...acme, teamCreated('t1'), invited('i1', 'new@example.com', 'admin', 't1')])
      .when(accept(at(47)))
      .then([
        {
          type: 'organization.invitation-accepted',
          data: {
            organizationId: O,
            invitationId: 'i1',
            inviteeSubject: 'invitee-new@example.com',
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
            roles: ['admin'],
            createdAt: at(47),
            invitationId: 'i1',
          },
        },
        {
          type: 'organization.team-member-added',
          data: {
            organizationId: O,
            teamId: 't1',
            teamMemberId: 'tm-new',
            userId: 'u-new',
            createdAt: at(47),
          },
        },
      ]))
  it('an expired invitation cannot be accepted', () =>
    given([...acme, invited('i1', 'new@example.com')])
      .when(accept(at(48)))
      .thenThrows('INVITATION_NOT_FOUND'))
  it('only the invited address accepts', () =>
    given([...acme, invited('i1', 'new@example.com')])
      .when(accept(at(1), 'other@example.com'))
      .thenThrows('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION'))
  it('a full organization refuses the acceptance', () =>
    given([...acme, invited('i1', 'new@example.com')], { ...policy, membershipLimit: 3 })
      .when(accept(at(1), 'new@example.com'))
      .thenThrows('ORGANIZATION_MEMBERSHIP_LIMIT_REACHED'))
  const canceled: OrganizationEvent = {
    type: 'organization.invitation-canceled',
    data: { organizationId: O, invitationId: 'i1', inviteeSubject: 'invitee-new@example.com' },
  }
  it('a canceled invitation cannot be accepted, nor an accepted one canceled', () => {
    given([...acme, invited('i1', 'new@example.com'), canceled])
      .when(accept(at(1)))
      .thenThrows('INVITATION_NOT_FOUND')
    const accepted = decider.decide(
      accept(at(1)),
      [...acme, invited('i1', 'new@example.com')].reduce(decider.evolve, decider.initialState()),
    )
    given([...acme, invited('i1', 'new@example.com'), ...accepted])
      .when({ type: 'cancel-invitation', actorUserId: 'u-admin', invitationId: 'i1' })
      .thenThrows('INVITATION_NOT_FOUND')
  })
  it('cancel needs the cancel permission', () =>
    given([...acme, invited('i1', 'new@example.com')])
      .when({ type: 'cancel-invitation', actorUserId: 'u-member', invitationId: 'i1' })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION'))
  it('an admin cancels', () =>
    given([...acme, invited('i1', 'new@example.com')])
      .when({ type: 'cancel-invitation', actorUserId: 'u-admin', invitationId: 'i1' })
      .then([canceled]))
  it('the invitee rejects, and then cannot accept', () => {
    const rejected: OrganizationEvent = {
      type: 'organization.invitation-rejected',
      data: {
        organizationId: O,
        invitationId: 'i1',
        inviteeSubject: 'invitee-new@example.com',
        userId: 'u-new',
      },
    }
    given([...acme, invited('i1', 'new@example.com')])
      .when({
        type: 'reject-invitation',
        invitationId: 'i1',
        userId: 'u-new',
        email: 'new@example.com',
        emailVerified: false,
        now: at(1),
      })
      .then([rejected])
    given([...acme, invited('i1', 'new@example.com'), rejected])
      .when(accept(at(1)))
      .thenThrows('INVITATION_NOT_FOUND')
  })
})

describe('organization: teams', () => {
  const withTeams = [...acme, teamCreated('t1'), teamMemberAdded('t1', 'u-owner'), teamCreated('t2')]
  it('an admin creates a team (updated when created, as better-auth has it); a member cannot', () => {
    given(acme)
      .when({ type: 'create-team', actorUserId: 'u-admin', teamId: 't9', name: 'Nine', now: T0 })
      .then([
        {
          type: 'organization.team-created',
          data: { organizationId: O, teamId: 't9', name: 'Nine', createdAt: T0, updatedAt: T0 },
        },
      ])
    given(acme)
      .when({ type: 'create-team', actorUserId: 'u-member', teamId: 't9', name: 'Nine', now: T0 })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION')
  })
  it('stops at the maximum number of teams', () =>
    given(withTeams, { ...policy, teams: { ...policy.teams, maximumTeams: 2 } })
      .when({
        type: 'create-team',
        actorUserId: 'u-admin',
        teamId: 't9',
        name: 'Nine',
        now: T0,
      })
      .thenThrows('YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS'))
  it('the last team cannot be removed unless allowed', () => {
    given([...acme, teamCreated('t1')])
      .when({ type: 'remove-team', actorUserId: 'u-owner', teamId: 't1', activeTeamId: null })
      .thenThrows('UNABLE_TO_REMOVE_LAST_TEAM')
    given([...acme, teamCreated('t1')], {
      ...policy,
      teams: { ...policy.teams, allowRemovingAllTeams: true },
    })
      .when({
        type: 'remove-team',
        actorUserId: 'u-owner',
        teamId: 't1',
        activeTeamId: null,
      })
      .then([{ type: 'organization.team-removed', data: { organizationId: O, teamId: 't1' } }])
  })
  it('nobody removes their own active team', () =>
    given(withTeams)
      .when({ type: 'remove-team', actorUserId: 'u-owner', teamId: 't1', activeTeamId: 't1' })
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM'))
  it('removing a team first takes its members out', () =>
    given(withTeams)
      .when({ type: 'remove-team', actorUserId: 'u-admin', teamId: 't1', activeTeamId: null })
      .then([
        {
          type: 'organization.team-member-removed',
          data: { organizationId: O, teamId: 't1', userId: 'u-owner' },
        },
        { type: 'organization.team-removed', data: { organizationId: O, teamId: 't1' } },
      ]))
  it('only members of the organization join a team, up to its limit', () => {
    given(withTeams)
      .when({
        type: 'add-team-member',
        actorUserId: 'u-admin',
        teamId: 't2',
        userId: 'u-stranger',
        teamMemberId: 'x',
        now: T0,
      })
      .thenThrows('USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION')
    given(withTeams, { ...policy, teams: { ...policy.teams, maximumMembersPerTeam: 1 } })
      .when({
        type: 'add-team-member',
        actorUserId: 'u-admin',
        teamId: 't1',
        userId: 'u-member',
        teamMemberId: 'x',
        now: T0,
      })
      .thenThrows('TEAM_MEMBER_LIMIT_REACHED')
    given(withTeams)
      .when({
        type: 'add-team-member',
        actorUserId: 'u-admin',
        teamId: 't2',
        userId: 'u-member',
        teamMemberId: 'tm-t2-u-member',
        now: T0,
      })
      .then([teamMemberAdded('t2', 'u-member')])
  })
  it('removing someone who is not in the team is refused', () =>
    given(withTeams)
      .when({ type: 'remove-team-member', actorUserId: 'u-admin', teamId: 't2', userId: 'u-member' })
      .thenThrows('USER_IS_NOT_A_MEMBER_OF_THE_TEAM'))
  it('leaving the organization leaves its teams', () => {
    const state = [
      ...withTeams,
      teamMemberAdded('t2', 'u-member'),
      {
        type: 'organization.member-removed',
        data: { organizationId: O, memberId: 'm-member', userId: 'u-member', reason: 'left' },
      } as OrganizationEvent,
    ].reduce(decider.evolve, decider.initialState())
    expect(state.status === 'active' ? state.teams.get('t2')?.userIds.has('u-member') : state.status).toBe(
      false,
    )
  })
})

describe('organization: custom roles', () => {
  const create = (
    actorUserId: string,
    permission: Record<string, string[]>,
    role = 'auditor',
  ): OrganizationCommand => ({
    type: 'create-role',
    actorUserId,
    roleId: `r-${role}`,
    role,
    permission,
    now: T0,
  })
  it('an admin creates a role within what they hold', () =>
    given(acme)
      .when(create('u-admin', { member: ['update'] }))
      .then([
        {
          type: 'organization.role-created',
          data: {
            organizationId: O,
            roleId: 'r-auditor',
            role: 'auditor',
            permission: { member: ['update'] },
            createdAt: T0,
          },
        },
      ]))
  it('an admin cannot grant what they lack (organization delete)', () =>
    given(acme)
      .when(create('u-admin', { organization: ['delete'] }))
      .thenThrows('YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE'))
  it('refuses unknown resources and built-in names', () => {
    given(acme)
      .when(create('u-owner', { spaceship: ['fly'] }))
      .thenThrows('INVALID_RESOURCE')
    given(acme)
      .when(create('u-owner', { member: ['update'] }, 'admin'))
      .thenThrows('ROLE_NAME_IS_ALREADY_TAKEN')
  })
  it('is off unless configured', () =>
    given(acme, { ...policy, dynamicRoles: null })
      .when(create('u-owner', { member: ['update'] }))
      .thenThrows('NOT_FOUND'))
  it('a custom role grants its permissions; an assigned role cannot be deleted', () => {
    const roleCreated: OrganizationEvent = {
      type: 'organization.role-created',
      data: {
        organizationId: O,
        roleId: 'r1',
        role: 'inviter',
        permission: { invitation: ['create'] },
        createdAt: T0,
      },
    }
    const history = [...acme, roleCreated, memberAdded('m-x', 'u-x', 'inviter')]
    given(history)
      .when({
        type: 'invite-member',
        actorUserId: 'u-x',
        invitationId: 'i1',
        email: 'new@example.com',
        inviteeSubject: 'invitee-new@example.com',
        roles: ['member'],
        teamIds: [],
        resend: false,
        inviteeUserId: null,
        now: T0,
      })
      .then([
        {
          ...invited('i1', 'new@example.com'),
          data: { ...(invited('i1', 'new@example.com').data as object), inviterId: 'u-x' },
        } as OrganizationEvent,
      ])
    given(history)
      .when({ type: 'delete-role', actorUserId: 'u-owner', roleIdOrName: 'inviter' })
      .thenThrows('ROLE_IS_ASSIGNED_TO_MEMBERS')
  })
})
