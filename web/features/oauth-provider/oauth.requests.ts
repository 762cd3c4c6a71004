import { request } from '../../app/http.js'

/// The requests of the OpenID provider's pages: the signed authorization request (`oauth_query`,
/// the page's own query) goes back with the sign-in and the consent, and the answer says where next.

export type WayOn = { redirect: boolean; url: string }
export type PublicClient = {
  client_id: string
  client_name?: string
  client_uri?: string
  logo_uri?: string
  tos_uri?: string
  policy_uri?: string
  owner?: string
  /** Who registered the client: an organization, a person, the operator, or the application itself. */
  owner_type?: 'organization' | 'user' | 'operator' | 'dynamic'
}

/** Who stands behind a client, in words, for the consent page. */
export const ownerInWords = (client: PublicClient): string => {
  switch (client.owner_type) {
    case 'organization':
      return `Registered by the organization ${client.owner ?? ''}.`.replace(' .', '.')
    case 'user':
      return client.owner
        ? `Registered by ${client.owner}, a person with an account here.`
        : 'Registered by a person.'
    case 'operator':
      return 'Registered by the operator of this service.'
    default:
      return 'It registered itself: nobody here has checked who runs it.'
  }
}

/**
 * The signed request the page was opened with, as the server signed it. A social or SSO sign-in
 * that failed comes back here with `error` added, which the server never signed: it is left out.
 */
export const oauthQueryOf = (search: string): string => {
  const params = new URLSearchParams(search)
  if (!params.has('error')) return search.replace(/^\?/, '')
  params.delete('error')
  return params.toString()
}

/** The way on, or the second step first (the same `oauth_query` goes with its code). */
export type SignInForClient = WayOn | { twoFactorRedirect: true; twoFactorMethods: string[] }

export const signInForClient = (body: { email: string; password: string; oauth_query: string }) =>
  request<SignInForClient>('/sign-in/email', { method: 'POST', body })

/** Who is signed in on this device, for the consent page to name; null when nobody is. */
export type SignedInAccount = { name: string; email: string }

export const signedInAccount = () => request<{ user: SignedInAccount } | null>('/get-session')

export const publicClient = (clientId: string) =>
  request<PublicClient>(`/oauth2/public-client?client_id=${encodeURIComponent(clientId)}`)

export const answerConsent = (body: { accept: boolean; oauth_query: string }) =>
  request<WayOn>('/oauth2/consent', { method: 'POST', body })

/** Scopes in words, for the consent page. */
export const SCOPE_WORDS: Record<string, string> = {
  openid: 'Know who you are',
  profile: 'See your name and picture',
  email: 'See your email address',
  offline_access: 'Stay connected while you are away',
  organization: 'See your organizations and your role in each',
}

/** A person's consent to an application, as `/oauth2/get-consents` answers it (its id is the client's). */
export type Consent = {
  id: string
  clientId: string
  clientName?: string
  scopes: string[]
  createdAt: string
  updatedAt: string
}

export const listConsents = () => request<Consent[]>('/oauth2/get-consents')

/** Revokes the consent; the server ends every grant the person gave the application. */
export const deleteConsent = (id: string) =>
  request<null>('/oauth2/delete-consent', { method: 'POST', body: { id } })
