import { api } from '../../app/api.js'
import type { User } from '../session/session.api.js'

export type DeleteUserAnswer = { success: boolean; message: string }

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateUser: build.mutation<{ status: boolean }, { name?: string; image?: string | null }>({
      query: (body) => ({ url: '/update-user', method: 'POST', body }),
      invalidatesTags: ['User', 'Session', 'Activity'],
    }),
    changeEmail: build.mutation<{ status: boolean }, { newEmail: string }>({
      query: ({ newEmail }) => ({
        url: '/change-email',
        method: 'POST',
        body: { newEmail, callbackURL: '/email-verified' },
      }),
      invalidatesTags: ['User', 'Session', 'Activity'],
    }),
    changePassword: build.mutation<
      { token: string | null; user: User },
      { currentPassword: string; newPassword: string; revokeOtherSessions: boolean }
    >({
      query: (body) => ({ url: '/change-password', method: 'POST', body }),
      // With revokeOtherSessions the server also rotates this device's session (new cookie).
      invalidatesTags: ['Session', 'Sessions', 'Activity'],
    }),
    deleteUser: build.mutation<DeleteUserAnswer, { password?: string }>({
      query: (body) => ({ url: '/delete-user', method: 'POST', body: { ...body, callbackURL: '/goodbye' } }),
    }),
  }),
})

export const {
  useUpdateUserMutation,
  useChangeEmailMutation,
  useChangePasswordMutation,
  useDeleteUserMutation,
} = accountApi
