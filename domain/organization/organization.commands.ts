/// Commands of the organization aggregate. Each carries what its rules need and the domain cannot
/// know by itself: the acting user, the time, fresh ids, and the configured limits (`policy`).

import type { PermissionStatements } from './organization.events.js'

export type TeamPolicy = {
  enabled: boolean
  /** A team named after the organization, holding its creator, made with the organization. */
  defaultTeam: boolean
  maximumTeams: number | null
  maximumMembersPerTeam: number | null
  allowRemovingAllTeams: boolean
}

export type OrganizationPolicy = {
  creatorRole: string
  membershipLimit: number
  invitationLimit: number
  invitationExpiresInSeconds: number
  teams: TeamPolicy
  /** Custom roles per organization (dynamic access control); null when off. */
  dynamicRoles: { maximumRolesPerOrganization: number } | null
}

export type CreateOrganization = {
  type: 'create-organization'
  organizationId: string
  name: string
  slug: string
  logo: string | null
  metadata: Record<string, unknown> | null
  userId: string
  memberId: string
  /** The creator's membership seat (see `MEMBERSHIP_SEAT_SCOPE`); null when no seat is taken. */
  seat: number | null
  /** The default team's ids, used when teams and the default team are on. */
  defaultTeam: { teamId: string; teamMemberId: string }
  now: string
  policy: OrganizationPolicy
}

/** Who acts: a member's user id, or null for the server (the CLI or the server API). */
type Acting = { actorUserId: string | null }

export type OrganizationCommand =
  | CreateOrganization
  | ({
      type: 'update-organization'
      name?: string
      slug?: string
      logo?: string | null
      metadata?: Record<string, unknown>
      policy: OrganizationPolicy
    } & Acting)
  | ({ type: 'delete-organization'; policy: OrganizationPolicy } & Acting)
  | ({
      type: 'add-member'
      memberId: string
      userId: string
      seat: number | null
      roles: string[]
      teamId: string | null
      teamMemberId: string
      now: string
      policy: OrganizationPolicy
    } & Acting)
  | ({
      type: 'remove-member'
      /** A member id, or the user id an email was resolved to. */
      target: { memberId: string } | { userId: string }
      policy: OrganizationPolicy
    } & Acting)
  | { type: 'leave-organization'; userId: string; policy: OrganizationPolicy }
  /** The member's user deleted their account. */
  | { type: 'remove-deleted-user'; userId: string }
  | ({
      type: 'update-member-role'
      memberId: string
      roles: string[]
      policy: OrganizationPolicy
    } & Acting)
  | ({
      type: 'invite-member'
      invitationId: string
      email: string
      inviteeSubject: string
      roles: string[]
      teamIds: string[]
      resend: boolean
      /** The invitee already holds a membership (looked up by their email). */
      inviteeUserId: string | null
      now: string
      policy: OrganizationPolicy
    } & Acting)
  | {
      type: 'accept-invitation'
      invitationId: string
      userId: string
      /** The signed-in user's email. */
      email: string
      memberId: string
      seat: number | null
      teamMemberIds: string[]
      now: string
      policy: OrganizationPolicy
    }
  | { type: 'reject-invitation'; invitationId: string; userId: string; email: string; now: string }
  | ({ type: 'cancel-invitation'; invitationId: string; policy: OrganizationPolicy } & Acting)
  | ({ type: 'create-team'; teamId: string; name: string; now: string; policy: OrganizationPolicy } & Acting)
  | ({
      type: 'update-team'
      teamId: string
      name: string | undefined
      now: string
      policy: OrganizationPolicy
    } & Acting)
  | ({
      type: 'remove-team'
      teamId: string
      /** The caller's session's active team: nobody removes the team they are working in. */
      activeTeamId: string | null
      policy: OrganizationPolicy
    } & Acting)
  | ({
      type: 'add-team-member'
      teamId: string
      userId: string
      teamMemberId: string
      now: string
      policy: OrganizationPolicy
    } & Acting)
  | ({ type: 'remove-team-member'; teamId: string; userId: string; policy: OrganizationPolicy } & Acting)
  | ({
      type: 'create-role'
      roleId: string
      role: string
      permission: PermissionStatements
      now: string
      policy: OrganizationPolicy
    } & Acting)
  | ({
      type: 'update-role'
      /** By id or by name. */
      roleIdOrName: string
      newName: string | undefined
      permission: PermissionStatements | undefined
      now: string
      policy: OrganizationPolicy
    } & Acting)
  | ({ type: 'delete-role'; roleIdOrName: string; policy: OrganizationPolicy } & Acting)
