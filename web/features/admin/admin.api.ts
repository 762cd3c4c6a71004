import { api } from '../../app/api.js'
import type { Session, User } from '../session/session.api.js'
import { directoryParams, type UserFilter, type UserSort } from './directory-options.js'

/// The operator console's calls: better-auth's admin routes, Tessera's /admin/user-activity and
/// /admin/user-overview, and the public password reset request sent for the person.

export type AdminUser = User & {
  role: string
  banned: boolean
  banReason: string | null
  banExpires: string | null
  /** Tessera's own: the latest session the person started; null when they never signed in. */
  lastSeenAt?: string | null
}

export type AdminSession = Session & { impersonatedBy: string | null }

export type UserPage = { users: AdminUser[]; total: number; limit?: number; offset?: number }

export type ActivityItem = {
  id: string
  type: string
  at: string
  ip: string | null
  userAgent: string | null
  details: Record<string, unknown>
}

export type UserOverview = {
  accounts: { id: string; providerId: string; accountId: string; createdAt: string }[]
  organizations: { id: string; name: string; slug: string; role: string }[]
}

export type AdminAction = {
  id: string
  at: string
  /** The acting user's name and address while their account exists (server key: its name as id). */
  actor: { type: string; id: string | null; email: string | null; name?: string | null }
  impersonatedBy: string | null
  action: string
  userId: string | null
  /** The account's address; null once it is erased. */
  userEmail: string | null
  /** The account's name; null once it is erased. */
  userName?: string | null
  details: Record<string, unknown>
}

export type AuditArgs = { actor: string; action: string; offset: number }

export type ListUsersArgs = {
  search: string
  limit: number
  offset: number
  filter?: UserFilter
  sort?: UserSort
}

/** What the console's pages need: the directory and the audit both list users. */
const CONSOLE_PERMISSION = { user: ['list'] } as const

const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Asked of the server, not read from the role: users listed in the admin config's
    // `adminUserIds` may use the admin API whatever their role, and the session does not show it.
    // The user id only keys the cache (switching accounts asks again); the server answers for the
    // session's own user.
    consoleAccess: build.query<boolean, string>({
      query: () => ({
        url: '/admin/has-permission',
        method: 'POST',
        body: { permissions: CONSOLE_PERMISSION },
      }),
      transformResponse: (answer: { success?: unknown }) => answer.success === true,
      // Impersonation, a new sign-in and a role change (set-role) can each change the answer.
      providesTags: ['Session', 'User'],
    }),
    listUsers: build.query<UserPage, ListUsersArgs>({
      query: ({ search, limit, offset, filter = 'all', sort = 'newest' }) => ({
        url: '/admin/list-users',
        params: {
          limit: String(limit),
          offset: String(offset),
          ...directoryParams(filter, sort),
          ...(search ? { searchValue: search, searchField: search.includes('@') ? 'email' : 'name' } : {}),
        },
      }),
      providesTags: ['User'],
    }),
    audit: build.query<{ actions: AdminAction[]; total: number }, AuditArgs>({
      query: ({ actor, action, offset }) => ({
        url: '/admin/audit',
        params: {
          limit: '50',
          offset: String(offset),
          ...(actor ? { actor } : {}),
          ...(action ? { action } : {}),
        },
      }),
      providesTags: ['Activity'],
    }),
    getUser: build.query<AdminUser, string>({
      query: (id) => ({ url: '/admin/get-user', params: { id } }),
      providesTags: ['User'],
    }),
    userActivity: build.query<{ items: ActivityItem[]; nextCursor: string | null }, string>({
      query: (userId) => ({ url: '/admin/user-activity', params: { userId, limit: '50' } }),
      providesTags: ['Activity'],
    }),
    userOverview: build.query<UserOverview, string>({
      query: (userId) => ({ url: '/admin/user-overview', params: { userId } }),
      providesTags: ['User'],
    }),
    // The same request as "Forgot your password?": the link goes to the person, never the operator.
    sendPasswordReset: build.mutation<{ status: boolean; message?: string }, { email: string }>({
      query: ({ email }) => ({
        url: '/request-password-reset',
        method: 'POST',
        body: { email, redirectTo: '/reset-password' },
      }),
      invalidatesTags: ['Activity'],
    }),
    listUserSessions: build.query<{ sessions: AdminSession[] }, string>({
      query: (userId) => ({ url: '/admin/list-user-sessions', method: 'POST', body: { userId } }),
      providesTags: ['Sessions'],
    }),
    banUser: build.mutation<
      { user: AdminUser },
      { userId: string; banReason?: string; banExpiresIn?: number }
    >({
      query: (body) => ({ url: '/admin/ban-user', method: 'POST', body }),
      invalidatesTags: ['User', 'Sessions', 'Activity'],
    }),
    unbanUser: build.mutation<{ user: AdminUser }, { userId: string }>({
      query: (body) => ({ url: '/admin/unban-user', method: 'POST', body }),
      invalidatesTags: ['User', 'Activity'],
    }),
    setRole: build.mutation<{ user: AdminUser }, { userId: string; role: string }>({
      query: (body) => ({ url: '/admin/set-role', method: 'POST', body }),
      invalidatesTags: ['User', 'Activity'],
    }),
    setUserPassword: build.mutation<{ status: boolean }, { userId: string; newPassword: string }>({
      query: (body) => ({ url: '/admin/set-user-password', method: 'POST', body }),
      invalidatesTags: ['Activity'],
    }),
    revokeUserSession: build.mutation<{ success: boolean }, { sessionToken: string }>({
      query: (body) => ({ url: '/admin/revoke-user-session', method: 'POST', body }),
      invalidatesTags: ['Sessions', 'Activity'],
    }),
    revokeUserSessions: build.mutation<{ success: boolean }, { userId: string }>({
      query: (body) => ({ url: '/admin/revoke-user-sessions', method: 'POST', body }),
      invalidatesTags: ['Sessions', 'Activity'],
    }),
    removeUser: build.mutation<{ success: boolean }, { userId: string }>({
      query: (body) => ({ url: '/admin/remove-user', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    impersonateUser: build.mutation<unknown, { userId: string }>({
      query: (body) => ({ url: '/admin/impersonate-user', method: 'POST', body }),
      invalidatesTags: ['Session', 'Sessions', 'User', 'Activity'],
    }),
    stopImpersonating: build.mutation<unknown, void>({
      query: () => ({ url: '/admin/stop-impersonating', method: 'POST', body: {} }),
      invalidatesTags: ['Session', 'Sessions', 'User', 'Activity'],
    }),
  }),
})

export const {
  useConsoleAccessQuery,
  useListUsersQuery,
  useAuditQuery,
  useGetUserQuery,
  useUserActivityQuery,
  useUserOverviewQuery,
  useSendPasswordResetMutation,
  useListUserSessionsQuery,
  useBanUserMutation,
  useUnbanUserMutation,
  useSetRoleMutation,
  useSetUserPasswordMutation,
  useRevokeUserSessionMutation,
  useRevokeUserSessionsMutation,
  useRemoveUserMutation,
  useImpersonateUserMutation,
  useStopImpersonatingMutation,
} = adminApi

/** Whether the signed-in person may use the operator console; no while unknown or on a failure. */
export const useMayUseConsole = (userId: string): boolean => useConsoleAccessQuery(userId).data === true
