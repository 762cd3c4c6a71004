import { request } from '../../app/http.js'
import { type WayOn, withOAuthQuery } from '../oauth-provider/hand-off.js'
import type { User } from '../session/session.api.js'

/// Sign-in by a mailed link or code (better-auth's magicLink and emailOTP routes).

/** The portal's page a followed link lands on; it goes on to `next` or shows what went wrong. */
export const LINK_LANDING_PATH = '/signed-in-by-link'

/** With an application's signed request (`oauthQuery`), the link goes on with its authorization. */
export const emailMeALink = (email: string, next: string, oauthQuery?: string) => {
  const landing = `${LINK_LANDING_PATH}?next=${encodeURIComponent(next)}`
  return request<{ status: boolean }>('/sign-in/magic-link', {
    method: 'POST',
    body: withOAuthQuery({ email, callbackURL: landing, errorCallbackURL: LINK_LANDING_PATH }, oauthQuery),
  })
}

export const emailMeACode = (email: string) =>
  request<{ success: boolean }>('/email-otp/send-verification-otp', {
    method: 'POST',
    body: { email, type: 'sign-in' },
  })

/**
 * Signs in; with an application's signed request (`oauthQuery`), answers the way on instead. With the
 * second factor on, a right code answers `twoFactorRedirect` (no session yet).
 */
export const signInWithCode = (email: string, otp: string, oauthQuery?: string) =>
  request<{ token: string; user: User } | WayOn | { twoFactorRedirect: true; twoFactorMethods: string[] }>(
    '/sign-in/email-otp',
    { method: 'POST', body: withOAuthQuery({ email, otp }, oauthQuery) },
  )
