import { request } from '../../app/http.js'
import { isApiError } from '../errors/api-error.js'
import { loginPageWith, withOAuthQuery } from '../oauth-provider/hand-off.js'

/// Single sign-on from the portal, on `@better-auth/sso`'s wire: starting a sign-in through an
/// organization's identity provider (the server answers the IdP's URL, where the browser goes next).

/** Where a person lands once the identity provider has signed them in. */
export const SSO_RETURN_PATH = '/account'
/** Where a failed return from the identity provider comes back to, with `?error=` in words. */
const SSO_ERROR_PATH = '/sign-in'

/** An address has an '@'; anything else is taken as the organization's slug. */
export type SsoIdentifier = { email: string } | { organizationSlug: string }

export const ssoIdentifier = (typed: string): SsoIdentifier => {
  const value = typed.trim()
  return value.includes('@') ? { email: value } : { organizationSlug: value.toLowerCase() }
}

/** With an application's signed request (`oauthQuery`), the callback goes on with its authorization. */
export const startSsoSignIn = (identifier: SsoIdentifier, oauthQuery?: string) =>
  request<{ url: string; redirect: boolean }>('/sign-in/sso', {
    method: 'POST',
    body: withOAuthQuery(
      {
        ...identifier,
        callbackURL: SSO_RETURN_PATH,
        errorCallbackURL: oauthQuery ? loginPageWith(oauthQuery) : SSO_ERROR_PATH,
      },
      oauthQuery,
    ),
  })

/** A password sign-in refused because the address's organization requires its identity provider. */
export const isSsoRequired = (error: unknown): boolean => isApiError(error) && error.code === 'SSO_REQUIRED'

export const goTo = (url: string) => window.location.assign(url)
