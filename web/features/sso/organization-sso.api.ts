import { api } from '../../app/api.js'

/// An organization's single sign-on, read from `@better-auth/sso`'s routes: the providers of the
/// organizations the viewer manages (filtered to one here), and the domain-verification steps.

export type SsoProviderSummary = {
  providerId: string
  type: 'oidc' | 'saml'
  issuer: string
  domain: string
  organizationId: string | null
  domainVerified: boolean
  ssoRequired?: boolean
}

/** The plugin's default `tokenPrefix`, for a server that does not say its own. */
const DEFAULT_PREFIX = 'better-auth-token'

/** The DNS TXT record's name and value, as the server checks them (with its configured prefix). */
export const txtRecordFor = (provider: SsoProviderSummary, token: string, prefix = DEFAULT_PREFIX) => {
  const label = `_${prefix}-${provider.providerId}`
  return { name: `${label}.${provider.domain}`, value: `${label}=${token}` }
}

export const organizationSsoApi = api.injectEndpoints({
  endpoints: (build) => ({
    listSsoProviders: build.query<{ providers: SsoProviderSummary[] }, void>({
      query: () => '/sso/providers',
    }),
    requestDomainVerification: build.mutation<{ domainVerificationToken: string }, { providerId: string }>({
      query: (body) => ({ url: '/sso/request-domain-verification', method: 'POST', body }),
    }),
    verifyDomain: build.mutation<null, { providerId: string }>({
      query: (body) => ({ url: '/sso/verify-domain', method: 'POST', body }),
    }),
  }),
})

export const { useListSsoProvidersQuery, useRequestDomainVerificationMutation, useVerifyDomainMutation } =
  organizationSsoApi
