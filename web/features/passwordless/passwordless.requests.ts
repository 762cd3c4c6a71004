import { request } from '../../app/http.js'
import type { User } from '../session/session.api.js'

/// Sign-in by a mailed link or code (better-auth's magicLink and emailOTP routes).

/** The portal's page a followed link lands on; it goes on to `next` or shows what went wrong. */
export const LINK_LANDING_PATH = '/signed-in-by-link'

export const emailMeALink = (email: string, next: string) => {
  const landing = `${LINK_LANDING_PATH}?next=${encodeURIComponent(next)}`
  return request<{ status: boolean }>('/sign-in/magic-link', {
    method: 'POST',
    body: { email, callbackURL: landing, errorCallbackURL: LINK_LANDING_PATH },
  })
}

export const emailMeACode = (email: string) =>
  request<{ success: boolean }>('/email-otp/send-verification-otp', {
    method: 'POST',
    body: { email, type: 'sign-in' },
  })

/** With the second factor on, a right code answers `twoFactorRedirect` (no session yet). */
export const signInWithCode = (email: string, otp: string) =>
  request<{ token: string; user: User } | { twoFactorRedirect: true; twoFactorMethods: string[] }>(
    '/sign-in/email-otp',
    { method: 'POST', body: { email, otp } },
  )
