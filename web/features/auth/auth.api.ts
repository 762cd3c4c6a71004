import { api } from '../../app/api.js'
import type { User } from '../session/session.api.js'

export type SignUpBody = { name: string; email: string; password: string; callbackURL: string }
export type SignInBody = { email: string; password: string; rememberMe: boolean }

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    signUp: build.mutation<{ token: string | null; user: User }, SignUpBody>({
      query: (body) => ({ url: '/sign-up/email', method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
    signIn: build.mutation<{ redirect: boolean; token: string; url?: string; user: User }, SignInBody>({
      query: (body) => ({ url: '/sign-in/email', method: 'POST', body }),
      // Lists cached for someone else (or for nobody) must not survive a sign-in.
      invalidatesTags: ['Sessions', 'Activity', 'User'],
    }),
    requestPasswordReset: build.mutation<{ status: boolean; message?: string }, { email: string }>({
      query: ({ email }) => ({
        url: '/request-password-reset',
        method: 'POST',
        body: { email, redirectTo: '/reset-password' },
      }),
    }),
    resetPassword: build.mutation<{ status: boolean }, { newPassword: string; token: string }>({
      query: (body) => ({ url: '/reset-password', method: 'POST', body }),
    }),
  }),
})

export const {
  useSignUpMutation,
  useSignInMutation,
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
} = authApi
