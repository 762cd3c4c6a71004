/// Events of the organization aggregate. One stream per organization (`organization-<id>`) holds the
/// organization, its members, teams, invitations and custom roles: whatever must change together
/// (accepting an invitation and the member it creates; the membership limit; the last owner) is
/// decided against one stream and appended in one transaction.

export type MemberRemovalReason = 'left' | 'removed' | 'organization-deleted' | 'account-deleted'

export type PermissionStatements = Record<string, string[]>

export type OrganizationEvent =
  | {
      type: 'organization.created'
      data: {
        organizationId: string
        name: string
        slug: string
        logo: string | null
        metadata: Record<string, unknown> | null
        createdAt: string
        createdBy: string
      }
    }
  | {
      type: 'organization.updated'
      data: {
        organizationId: string
        name: string
        slug: string
        previousSlug: string
        logo: string | null
        metadata: Record<string, unknown> | null
      }
    }
  | { type: 'organization.deleted'; data: { organizationId: string; slug: string } }
  | {
      type: 'organization.member-added'
      data: {
        organizationId: string
        memberId: string
        userId: string
        /** Version 2 (organization.upcasters.ts): was `role`, the roles comma-separated. */
        roles: string[]
        createdAt: string
        /** The invitation this membership came from, if any. */
        invitationId: string | null
        /**
         * The user's membership seat (claimed as `organization.membership-seat`), which bounds how
         * many organizations they belong to under concurrency; absent while no `organizationLimit`
         * is configured, and in memberships made before seats existed.
         */
        seat?: number
      }
    }
  | {
      type: 'organization.member-removed'
      data: {
        organizationId: string
        memberId: string
        userId: string
        reason: MemberRemovalReason
        /** The seat this membership held, released with it. */
        seat?: number
      }
    }
  | {
      type: 'organization.member-role-updated'
      /** Version 2: was `role` and `previousRole`, comma-separated. */
      data: {
        organizationId: string
        memberId: string
        userId: string
        roles: string[]
        previousRoles: string[]
      }
    }
  | {
      type: 'organization.invitation-created'
      data: {
        organizationId: string
        invitationId: string
        /** Lowercased; sealed under the invitee's key (`inviteeSubject`), not the inviter's. */
        email: string
        inviteeSubject: string
        /** Version 2: was `role`, comma-separated. */
        roles: string[]
        /** Version 2: was `teamId`, comma-separated as better-auth stores them, null for none. */
        teamIds: string[]
        inviterId: string
        expiresAt: string
        createdAt: string
      }
    }
  | {
      /** Invited again (`resend`): a new expiry and a new mail. */
      type: 'organization.invitation-renewed'
      data: { organizationId: string; invitationId: string; inviteeSubject: string; expiresAt: string }
    }
  | {
      type: 'organization.invitation-accepted'
      data: {
        organizationId: string
        invitationId: string
        inviteeSubject: string
        userId: string
        memberId: string
      }
    }
  | {
      type: 'organization.invitation-rejected'
      data: { organizationId: string; invitationId: string; inviteeSubject: string; userId: string }
    }
  | {
      type: 'organization.invitation-canceled'
      data: { organizationId: string; invitationId: string; inviteeSubject: string }
    }
  | {
      type: 'organization.team-created'
      /** `updatedAt`: set by create-team (as better-auth sets it), absent for the default team. */
      data: { organizationId: string; teamId: string; name: string; createdAt: string; updatedAt?: string }
    }
  | {
      type: 'organization.team-updated'
      data: { organizationId: string; teamId: string; name: string; updatedAt: string }
    }
  | { type: 'organization.team-removed'; data: { organizationId: string; teamId: string } }
  | {
      type: 'organization.team-member-added'
      data: {
        organizationId: string
        teamId: string
        teamMemberId: string
        userId: string
        createdAt: string
      }
    }
  | {
      type: 'organization.team-member-removed'
      data: { organizationId: string; teamId: string; userId: string }
    }
  | {
      type: 'organization.role-created'
      data: {
        organizationId: string
        roleId: string
        role: string
        permission: PermissionStatements
        createdAt: string
      }
    }
  | {
      type: 'organization.role-updated'
      data: {
        organizationId: string
        roleId: string
        role: string
        permission: PermissionStatements
        updatedAt: string
      }
    }
  | { type: 'organization.role-deleted'; data: { organizationId: string; roleId: string; role: string } }

export type OrganizationEventType = OrganizationEvent['type']

/** Events that send the invitee a mail (the mail reactor's). */
export const INVITATION_MAIL_EVENT_TYPES = [
  'organization.invitation-created',
  'organization.invitation-renewed',
] as const satisfies readonly OrganizationEventType[]
