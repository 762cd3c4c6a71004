/// What the organization use cases read of the organizations read model (organizations, members,
/// invitations, teams, custom roles), as a port on the command context
/// (`CommandContext.lookups.organizations`). Each method is the repository function of the same
/// name without its database, which the composition root binds (app/server/command-lookups.ts).

import type { MemberUser, MemberWithUser } from '../../projections/organizations/organizations.repository.js'
import type {
  InvitationRow,
  MemberRow,
  OrganizationRow,
  RoleRow,
  TeamMemberRow,
  TeamRow,
} from '../../projections/organizations/organizations.table.js'
import type { Bound } from './bound.js'

export type {
  InvitationRow,
  MemberRow,
  MemberUser,
  MemberWithUser,
  OrganizationRow,
  RoleRow,
  TeamMemberRow,
  TeamRow,
}

type Repository = typeof import('../../projections/organizations/organizations.repository.js')

export type OrganizationLookup = {
  findOrganization: Bound<Repository['findOrganization']>
  findOrganizationBySlug: Bound<Repository['findOrganizationBySlug']>
  listOrganizationsOfUser: Bound<Repository['listOrganizationsOfUser']>
  countOrganizationsOfUser: Bound<Repository['countOrganizationsOfUser']>
  findMember: Bound<Repository['findMember']>
  findMemberById: Bound<Repository['findMemberById']>
  findMemberWithUser: Bound<Repository['findMemberWithUser']>
  findMemberByEmail: Bound<Repository['findMemberByEmail']>
  listMembers: Bound<Repository['listMembers']>
  listFirstMembers: Bound<Repository['listFirstMembers']>
  listInvitations: Bound<Repository['listInvitations']>
  findInvitation: Bound<Repository['findInvitation']>
  listTeamsWithMemberCounts: Bound<Repository['listTeamsWithMemberCounts']>
  findTeam: Bound<Repository['findTeam']>
  findTeamMember: Bound<Repository['findTeamMember']>
  listRoles: Bound<Repository['listRoles']>
  customRolesOf: Bound<Repository['customRolesOf']>
}
