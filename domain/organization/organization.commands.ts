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
  /** Whether a user (not only the server) may create an organization. */
  allowUserToCreateOrganization: boolean
  /** Deleting an organization is refused to everyone. */
  disableOrganizationDeletion: boolean
  /** An invitee accepts or rejects only once their address is verified. */
  requireEmailVerificationOnInvitation: boolean
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
  /** The server creates it (the CLI, the server API): allowed even when users may not. */
  byServer: boolean
  memberId: string
  /** The creator's membership seat (see `MEMBERSHIP_SEAT_SCOPE`); null when no seat is taken. */
  seat: number | null
  /** The default team's ids, used when teams and the default team are on. */
  defaultTeam: { teamId: string; teamMemberId: string }
  now: string
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
    } & Acting)
  | ({ type: 'delete-organization' } & Acting)
  | ({
      type: 'add-member'
      memberId: string
      userId: string
      /** The user has an account (looked up by id). */
      userExists: boolean
      seat: number | null
      roles: string[]
      teamId: string | null
      teamMemberId: string
      now: string
    } & Acting)
  | ({
      type: 'remove-member'
      /** A member id, or the user id an email was resolved to (null: the address names no member). */
      target: { memberId: string } | { userId: string | null }
    } & Acting)
  | { type: 'leave-organization'; userId: string }
  /** The member's user deleted their account. */
  | { type: 'remove-deleted-user'; userId: string }
  | ({
      type: 'update-member-role'
      memberId: string
      /** The member id names a member of another organization (better-auth refuses it as not allowed). */
      memberElsewhere: boolean
      roles: string[]
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
    } & Acting)
  | {
      type: 'accept-invitation'
      invitationId: string
      userId: string
      /** The signed-in user's email, and whether it is verified. */
      email: string
      emailVerified: boolean
      memberId: string
      seat: number | null
      teamMemberIds: string[]
      now: string
    }
  | {
      type: 'reject-invitation'
      invitationId: string
      userId: string
      email: string
      emailVerified: boolean
      now: string
    }
  | ({ type: 'cancel-invitation'; invitationId: string } & Acting)
  | ({ type: 'create-team'; teamId: string; name: string; now: string } & Acting)
  | ({
      type: 'update-team'
      teamId: string
      name: string | undefined
      now: string
    } & Acting)
  | ({
      type: 'remove-team'
      teamId: string
      /** The caller's session's active team: nobody removes the team they are working in. */
      activeTeamId: string | null
    } & Acting)
  | ({
      type: 'add-team-member'
      teamId: string
      userId: string
      teamMemberId: string
      now: string
    } & Acting)
  | ({ type: 'remove-team-member'; teamId: string; userId: string } & Acting)
  | ({
      type: 'create-role'
      roleId: string
      role: string
      permission: PermissionStatements
      now: string
    } & Acting)
  | ({
      type: 'update-role'
      /** By id or by name. */
      roleIdOrName: string
      newName: string | undefined
      permission: PermissionStatements | undefined
      now: string
    } & Acting)
  | ({ type: 'delete-role'; roleIdOrName: string } & Acting)
