import { request } from '../../app/http.js'
import { withOAuthQuery } from '../oauth-provider/hand-off.js'

/// Social sign-in from the portal: which providers are offered, starting a sign-in or a link (the
/// server answers the provider's URL, where the browser goes next), and the linked accounts.

export type SocialProvider = { id: string; name: string }
export type LinkedAccount = { id: string; providerId: string; accountId: string; createdAt: string }

type Started = { url: string; redirect: boolean }

export const listProviders = () => request<SocialProvider[]>('/providers')

/** With an application's signed request (`oauthQuery`), the callback goes on with its authorization. */
export const startSocialSignIn = (provider: string, returnTo: string, errorTo: string, oauthQuery?: string) =>
  request<Started>('/sign-in/social', {
    method: 'POST',
    body: withOAuthQuery(
      {
        provider,
        callbackURL: returnTo,
        // A first visit lands on the profile, where the new account can be checked and named.
        newUserCallbackURL: '/account',
        // Failures come back to the page the button was on, which says what happened in words.
        errorCallbackURL: errorTo,
        disableRedirect: true,
      },
      oauthQuery,
    ),
  })

export const startLink = (provider: string) =>
  request<Started>('/link-social', {
    method: 'POST',
    body: {
      provider,
      callbackURL: '/account/security?linked=1',
      errorCallbackURL: '/account/security',
      disableRedirect: true,
    },
  })

export const listAccounts = () => request<LinkedAccount[]>('/list-accounts')

/** Unlinks a service, or with providerId 'credential' removes the password (not the last way in). */
export const unlinkAccount = (accountId: string, providerId?: string) =>
  request<{ status: boolean }>('/unlink-account', {
    method: 'POST',
    body: providerId === undefined ? { accountId } : { accountId, providerId },
  })

/** Leaves the portal for the provider's page (a full navigation, not a route change). */
export const goTo = (url: string) => window.location.assign(url)
