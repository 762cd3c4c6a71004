/// What the organization decider's specs start from: a policy with better-auth's defaults (and teams
/// on), and the event that creates an organization.

import type { OrganizationPolicy } from '../../domain/organization/organization.commands.js'
import type { OrganizationEvent } from '../../domain/organization/organization.events.js'

export const testOrganizationPolicy = (overrides: Partial<OrganizationPolicy> = {}): OrganizationPolicy => ({
  creatorRole: 'owner',
  membershipLimit: 100,
  invitationLimit: 100,
  invitationExpiresInSeconds: 48 * 3600,
  teams: {
    enabled: true,
    defaultTeam: true,
    maximumTeams: null,
    maximumMembersPerTeam: null,
    allowRemovingAllTeams: false,
  },
  allowUserToCreateOrganization: true,
  disableOrganizationDeletion: false,
  requireEmailVerificationOnInvitation: false,
  dynamicRoles: { maximumRolesPerOrganization: 3 },
  ...overrides,
})

/** `organization.created` of "Acme" (slug `acme`). */
export const organizationCreated = (
  organizationId: string,
  createdBy: string,
  createdAt: string,
): OrganizationEvent => ({
  type: 'organization.created',
  data: { organizationId, name: 'Acme', slug: 'acme', logo: null, metadata: null, createdAt, createdBy },
})
