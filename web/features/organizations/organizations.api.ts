import { api } from '../../app/api.js'

/// The organization routes, on the wire as better-auth's organization plugin answers them
/// (`/organization/*` under /api/auth), plus Tessera's audit feed (`/organization/activity`).

export type Organization = {
  id: string
  name: string
  slug: string
  logo?: string | null
  /** The stored JSON text in list, get-full-organization and set-active; parsed in create and update. */
  metadata?: string | Record<string, unknown> | null
  createdAt: string
}

export type MemberUser = { id: string; name: string; email: string; image?: string | null }

export type Member = {
  id: string
  organizationId: string
  userId: string
  /** One role or several, comma-separated ("admin,member"). */
  role: string
  createdAt: string
  user: MemberUser
}

export type InvitationStatus = 'pending' | 'accepted' | 'rejected' | 'canceled'

export type Invitation = {
  id: string
  organizationId: string
  email: string
  role: string
  status: InvitationStatus
  /** Comma-separated team ids, or null. */
  teamId?: string | null
  inviterId: string
  expiresAt: string
  createdAt?: string
}

export type Team = {
  id: string
  name: string
  organizationId: string
  createdAt: string
  updatedAt?: string | null
}

export type TeamMember = { id: string; teamId: string; userId: string; createdAt: string }

export type FullOrganization = Organization & {
  members: Member[]
  invitations: Invitation[]
  teams?: Team[]
}

/** What get-invitation adds for the invited person: the organization and who invited them. */
export type InvitationDetails = Invitation & {
  organizationName: string
  organizationSlug: string
  inviterEmail: string
}

/** What a signed-out holder of an invitation's id may see (Tessera's invitation-preview). */
export type InvitationPreview = { organizationName: string; inviterName: string; expiresAt: string }

/** A pending invitation to the signed-in person's own (verified) address. */
export type UserInvitation = Invitation & { organizationName: string }

/** A custom role of an organization (dynamic access control): its permission statements. */
export type CustomRole = {
  id: string
  organizationId: string
  role: string
  permission: Record<string, string[]>
  createdAt: string
  updatedAt?: string | null
}

export type OrganizationActivityItem = {
  id: string
  type: string
  at: string
  /** Who did it (null: the system, or a person since erased). */
  actorUserId: string | null
  details: Record<string, unknown> | null
}

export type OrganizationActivityPage = { entries: OrganizationActivityItem[]; nextCursor: string | null }

type Id = { organizationId: string }

const ORG = (id: string) => ({ type: 'Organization' as const, id })

export const organizationsApi = api
  .enhanceEndpoints({
    addTagTypes: [
      'Organizations',
      'Organization',
      'OrganizationActivity',
      'Teams',
      'UserInvitations',
      'Roles',
    ],
  })
  .injectEndpoints({
    endpoints: (build) => ({
      listOrganizations: build.query<Organization[], void>({
        query: () => '/organization/list',
        providesTags: ['Organizations'],
      }),
      checkSlug: build.mutation<{ status: boolean }, { slug: string }>({
        query: (body) => ({ url: '/organization/check-slug', method: 'POST', body }),
      }),
      createOrganization: build.mutation<Organization, { name: string; slug: string; logo?: string }>({
        query: (body) => ({ url: '/organization/create', method: 'POST', body }),
        invalidatesTags: ['Organizations', 'Session', 'Activity'],
      }),
      setActiveOrganization: build.mutation<Organization | null, { organizationId: string | null }>({
        query: (body) => ({ url: '/organization/set-active', method: 'POST', body }),
        invalidatesTags: ['Session'],
      }),
      getFullOrganization: build.query<FullOrganization | null, Id>({
        query: ({ organizationId }) => ({
          url: '/organization/get-full-organization',
          params: { organizationId },
        }),
        providesTags: (_result, _error, { organizationId }) => [ORG(organizationId)],
      }),
      updateOrganization: build.mutation<
        Organization,
        Id & { data: { name?: string; slug?: string; logo?: string | null } }
      >({
        query: (body) => ({ url: '/organization/update', method: 'POST', body }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'Organizations',
          'OrganizationActivity',
        ],
      }),
      deleteOrganization: build.mutation<Organization, Id>({
        query: (body) => ({ url: '/organization/delete', method: 'POST', body }),
        invalidatesTags: ['Organizations', 'Session'],
      }),
      updateMemberRole: build.mutation<Member, Id & { memberId: string; role: string }>({
        query: (body) => ({ url: '/organization/update-member-role', method: 'POST', body }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'OrganizationActivity',
        ],
      }),
      removeMember: build.mutation<{ member: Member }, Id & { memberIdOrEmail: string }>({
        query: (body) => ({ url: '/organization/remove-member', method: 'POST', body }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'OrganizationActivity',
          'Teams',
        ],
      }),
      leaveOrganization: build.mutation<Member, Id>({
        query: (body) => ({ url: '/organization/leave', method: 'POST', body }),
        invalidatesTags: ['Organizations', 'Session'],
      }),
      inviteMember: build.mutation<
        Invitation,
        Id & { email: string; role: string; teamId?: string; resend?: boolean }
      >({
        query: (body) => ({ url: '/organization/invite-member', method: 'POST', body }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'OrganizationActivity',
        ],
      }),
      cancelInvitation: build.mutation<Invitation, Id & { invitationId: string }>({
        query: ({ invitationId }) => ({
          url: '/organization/cancel-invitation',
          method: 'POST',
          body: { invitationId },
        }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'OrganizationActivity',
        ],
      }),
      getInvitation: build.query<InvitationDetails, { id: string }>({
        query: ({ id }) => ({ url: '/organization/get-invitation', params: { id } }),
      }),
      getInvitationPreview: build.query<InvitationPreview, { id: string }>({
        query: ({ id }) => ({ url: '/organization/invitation-preview', params: { id } }),
      }),
      listUserInvitations: build.query<UserInvitation[], void>({
        query: () => '/organization/list-user-invitations',
        providesTags: ['UserInvitations'],
      }),
      acceptInvitation: build.mutation<{ invitation: Invitation; member: Member }, { invitationId: string }>({
        query: (body) => ({ url: '/organization/accept-invitation', method: 'POST', body }),
        invalidatesTags: ['Organizations', 'Session', 'Activity', 'UserInvitations'],
      }),
      rejectInvitation: build.mutation<unknown, { invitationId: string }>({
        query: (body) => ({ url: '/organization/reject-invitation', method: 'POST', body }),
        invalidatesTags: ['UserInvitations'],
      }),
      listTeams: build.query<Team[], Id>({
        query: ({ organizationId }) => ({ url: '/organization/list-teams', params: { organizationId } }),
        providesTags: ['Teams'],
      }),
      createTeam: build.mutation<Team, Id & { name: string }>({
        query: (body) => ({ url: '/organization/create-team', method: 'POST', body }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'Teams',
          'OrganizationActivity',
        ],
      }),
      updateTeam: build.mutation<Team, Id & { teamId: string; name: string }>({
        query: ({ organizationId, teamId, name }) => ({
          url: '/organization/update-team',
          method: 'POST',
          body: { teamId, data: { name, organizationId } },
        }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'Teams',
          'OrganizationActivity',
        ],
      }),
      removeTeam: build.mutation<{ message: string }, Id & { teamId: string }>({
        query: (body) => ({ url: '/organization/remove-team', method: 'POST', body }),
        invalidatesTags: (_result, _error, { organizationId }) => [
          ORG(organizationId),
          'Teams',
          'OrganizationActivity',
        ],
      }),
      setActiveTeam: build.mutation<Team | null, { teamId: string | null }>({
        query: (body) => ({ url: '/organization/set-active-team', method: 'POST', body }),
        invalidatesTags: ['Session'],
      }),
      listRoles: build.query<CustomRole[], Id>({
        query: ({ organizationId }) => ({ url: '/organization/list-roles', params: { organizationId } }),
        providesTags: ['Roles'],
      }),
      createRole: build.mutation<
        { roleData: CustomRole },
        Id & { role: string; permission: Record<string, string[]> }
      >({
        query: (body) => ({ url: '/organization/create-role', method: 'POST', body }),
        invalidatesTags: ['Roles'],
      }),
      updateRole: build.mutation<
        { roleData: CustomRole },
        Id & { roleId: string; permission: Record<string, string[]> }
      >({
        query: ({ organizationId, roleId, permission }) => ({
          url: '/organization/update-role',
          method: 'POST',
          body: { organizationId, roleId, data: { permission } },
        }),
        invalidatesTags: ['Roles'],
      }),
      deleteRole: build.mutation<{ success: boolean }, Id & { roleId: string }>({
        query: (body) => ({ url: '/organization/delete-role', method: 'POST', body }),
        invalidatesTags: ['Roles'],
      }),
      listTeamMembers: build.query<TeamMember[], { teamId: string }>({
        query: ({ teamId }) => ({ url: '/organization/list-team-members', params: { teamId } }),
        providesTags: ['Teams'],
      }),
      addTeamMember: build.mutation<TeamMember, { teamId: string; userId: string }>({
        query: (body) => ({ url: '/organization/add-team-member', method: 'POST', body }),
        invalidatesTags: ['Teams', 'OrganizationActivity'],
      }),
      removeTeamMember: build.mutation<{ message: string }, { teamId: string; userId: string }>({
        query: (body) => ({ url: '/organization/remove-team-member', method: 'POST', body }),
        invalidatesTags: ['Teams', 'OrganizationActivity'],
      }),
      getOrganizationActivity: build.infiniteQuery<OrganizationActivityPage, Id, string | null>({
        query: ({ queryArg, pageParam }) => ({
          url: '/organization/activity',
          params: { organizationId: queryArg.organizationId, cursor: pageParam ?? undefined },
        }),
        infiniteQueryOptions: {
          initialPageParam: null,
          getNextPageParam: (lastPage) => lastPage.nextCursor,
        },
        providesTags: ['OrganizationActivity'],
      }),
    }),
  })

export const {
  useListOrganizationsQuery,
  useCheckSlugMutation,
  useCreateOrganizationMutation,
  useSetActiveOrganizationMutation,
  useGetFullOrganizationQuery,
  useUpdateOrganizationMutation,
  useDeleteOrganizationMutation,
  useUpdateMemberRoleMutation,
  useRemoveMemberMutation,
  useLeaveOrganizationMutation,
  useInviteMemberMutation,
  useCancelInvitationMutation,
  useGetInvitationQuery,
  useAcceptInvitationMutation,
  useRejectInvitationMutation,
  useGetInvitationPreviewQuery,
  useListUserInvitationsQuery,
  useSetActiveTeamMutation,
  useListRolesQuery,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
  useCreateTeamMutation,
  useUpdateTeamMutation,
  useRemoveTeamMutation,
  useListTeamMembersQuery,
  useAddTeamMemberMutation,
  useRemoveTeamMemberMutation,
  useGetOrganizationActivityInfiniteQuery,
} = organizationsApi
