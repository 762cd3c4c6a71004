import { request } from '../../app/http.js'
import type { User } from '../session/session.api.js'

/// The requests of the pages a visit starts on, without the store (see app/http.ts).

export type SignUpBody = {
  name: string
  email: string
  password: string
  callbackURL: string
  username?: string
  displayUsername?: string
}
export type SignInBody = { email: string; password: string; rememberMe: boolean }
export type SignInUsernameBody = { username: string; password: string; rememberMe: boolean }
/** With the second factor on, the password alone answers `twoFactorRedirect` (no session yet). */
export type SignInAnswer =
  | { redirect: boolean; token: string; url?: string; user: User; twoFactorRedirect?: undefined }
  | { twoFactorRedirect: true; twoFactorMethods: string[] }

export const signUp = (body: SignUpBody) =>
  request<{ token: string | null; user: User }>('/sign-up/email', { method: 'POST', body })

export const signInWithEmail = (body: SignInBody) =>
  request<SignInAnswer>('/sign-in/email', { method: 'POST', body })

export const signInWithUsername = (body: SignInUsernameBody) =>
  request<SignInAnswer>('/sign-in/username', { method: 'POST', body })

export const requestPasswordReset = ({ email }: { email: string }) =>
  request<{ status: boolean; message?: string }>('/request-password-reset', {
    method: 'POST',
    body: { email, redirectTo: '/reset-password' },
  })

export const resetPassword = (body: { newPassword: string; token: string }) =>
  request<{ status: boolean }>('/reset-password', { method: 'POST', body })

export const isUsernameAvailable = (username: string) =>
  request<{ available: boolean }>('/is-username-available', { method: 'POST', body: { username } })
