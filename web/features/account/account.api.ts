import { api } from '../../app/api.js'
import type { User } from '../session/session.api.js'

export type DeleteUserAnswer = { success: boolean; message: string }

/** Where the mailed deletion link lands once it has deleted the account (see GoodbyePage). */
export const DELETED_CALLBACK = '/goodbye/link'

/** Where the mailed links of an email change land; the marker tells them from a sign-up's. */
export const EMAIL_CHANGE_CALLBACK = '/email-verified/change'

/** An email change on its way (GET /pending-email-change): who must open which link next. */
export type PendingEmailChange = {
  newEmail: string
  /** 'confirm-current': the current address must approve; 'verify-new': the new one must verify. */
  step: 'confirm-current' | 'verify-new'
  requestedAt: string
}

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateUser: build.mutation<
      { status: boolean },
      { name?: string; image?: string | null; username?: string; displayUsername?: string }
    >({
      query: (body) => ({ url: '/update-user', method: 'POST', body }),
      invalidatesTags: ['User', 'Session', 'Activity', 'DeviceSessions'],
    }),
    changeEmail: build.mutation<{ status: boolean }, { newEmail: string }>({
      query: ({ newEmail }) => ({
        url: '/change-email',
        method: 'POST',
        body: { newEmail, callbackURL: EMAIL_CHANGE_CALLBACK },
      }),
      invalidatesTags: ['User', 'Session', 'Activity'],
    }),
    getPendingEmailChange: build.query<PendingEmailChange | null, void>({
      query: () => '/pending-email-change',
      transformResponse: (answer: { pending?: PendingEmailChange | null } | null) => answer?.pending ?? null,
      providesTags: ['User'],
    }),
    changePassword: build.mutation<
      { token: string | null; user: User },
      { currentPassword: string; newPassword: string; revokeOtherSessions: boolean }
    >({
      query: (body) => ({ url: '/change-password', method: 'POST', body }),
      // With revokeOtherSessions the server also rotates this device's session (new cookie).
      invalidatesTags: ['Session', 'Sessions', 'Activity'],
    }),
    /** With the password (the danger zone) or with the mailed link's token (/confirm-deletion). */
    deleteUser: build.mutation<DeleteUserAnswer, { password?: string; token?: string }>({
      query: (body) => ({
        url: '/delete-user',
        method: 'POST',
        body: { ...body, callbackURL: DELETED_CALLBACK },
      }),
    }),
  }),
})

export const {
  useUpdateUserMutation,
  useChangeEmailMutation,
  useChangePasswordMutation,
  useDeleteUserMutation,
} = accountApi

/** The pending change, or null when there is none (or the server cannot tell yet). */
export const usePendingEmailChange = (skip = false): PendingEmailChange | null =>
  accountApi.useGetPendingEmailChangeQuery(undefined, { skip }).data ?? null
