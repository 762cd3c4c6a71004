/// An organization of three (an owner, ada and bob) and the SCIM facts its group commands carry,
/// shared by the team-follower tests on SQL and on the KurrentDB adapter.

import type { OrganizationPolicy } from '../../domain/organization/organization.commands.js'
import { type OrganizationCommand, organizationDecider } from '../../domain/organization/organization.js'
import type { ScimGroupCommand } from '../../domain/scim/scim-group.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import { testOrganizationPolicy } from '../../tests/support/organization-fixtures.js'

export const metadata: EventMetadata = {
  actor: { type: 'system' },
  ip: null,
  userAgent: null,
  correlationId: 'request-1',
  causationId: null,
  at: '2026-11-27T12:00:00.000Z',
}
export const NOW = '2026-11-27T12:00:00.000Z'

// Teams on, with no default team, and a team may be removed whatever is left.
export const policy: OrganizationPolicy = testOrganizationPolicy({
  teams: {
    enabled: true,
    defaultTeam: false,
    maximumTeams: null,
    maximumMembersPerTeam: null,
    allowRemovingAllTeams: true,
  },
})
export const organizations = organizationDecider(policy)
export const ORG = 'org-1'
export const GROUP = 'group-1'
export const projector = { waitFor: async () => true }

export const seed: OrganizationCommand[] = [
  {
    type: 'create-organization',
    organizationId: ORG,
    name: 'Acme',
    slug: 'acme',
    logo: null,
    metadata: null,
    userId: 'owner',
    byServer: true,
    memberId: 'm-owner',
    seat: null,
    defaultTeam: { teamId: 't-default', teamMemberId: 'tm-owner' },
    now: NOW,
  },
  ...['ada', 'bob'].map(
    (userId): OrganizationCommand => ({
      type: 'add-member',
      actorUserId: null,
      memberId: `m-${userId}`,
      userId,
      userExists: true,
      seat: null,
      roles: ['member'],
      teamId: null,
      teamMemberId: `tm-${userId}`,
      now: NOW,
    }),
  ),
]

export const facts = { connectionId: 'okta', provisioned: ['ada', 'bob'], teamsEnabled: true }
export const addMembers = (...userIds: string[]): ScimGroupCommand => ({
  type: 'change-scim-group',
  ...facts,
  operations: [{ op: 'add-members', userIds }],
})
