import { api } from '../../app/api.js'

/// An organization's single sign-on, read from `@better-auth/sso`'s routes: the providers of the
/// organizations the viewer manages (filtered to one here), registering one, the
/// domain-verification steps, and Tessera's require-SSO per domain.

export type SsoProviderSummary = {
  providerId: string
  type: 'oidc' | 'saml'
  issuer: string
  /** One domain or several, comma-separated (the plugin's wire). */
  domain: string
  organizationId: string | null
  domainVerified: boolean
  ssoRequired?: boolean
  verifiedDomains?: string[]
  ssoRequiredDomains?: string[]
  spMetadataUrl?: string
}

/** What /sso/register takes from the portal (the plugin's body). */
export type RegisterSsoBody = {
  providerId: string
  issuer: string
  domain: string
  organizationId: string
  oidcConfig?: { clientId: string; clientSecret: string; discoveryEndpoint?: string }
  samlConfig?: {
    entryPoint: string
    cert?: string
    idpMetadata: { metadata?: string; entityID?: string; cert?: string }
    wantAssertionsSigned: boolean
  }
}

export type RegisteredSsoProvider = {
  providerId: string
  domain: string
  redirectURI: string
  samlConfig: unknown
  domainVerificationToken?: string
}

/** The plugin's default `tokenPrefix`, for a server that does not say its own. */
const DEFAULT_PREFIX = 'better-auth-token'

/** The provider's domains, as the server reads its comma-separated `domain`. */
export const domainsOf = (provider: { domain: string }): string[] => [
  ...new Set(
    provider.domain
      .split(',')
      .map((domain) => domain.trim().toLowerCase())
      .filter(Boolean),
  ),
]

/** The DNS TXT record's name and value for one domain, as the server checks them. */
export const txtRecordFor = (
  provider: { providerId: string; domain: string },
  token: string,
  prefix = DEFAULT_PREFIX,
  domain = domainsOf(provider)[0] ?? provider.domain,
) => {
  const label = `_${prefix}-${provider.providerId}`
  return { name: `${label}.${domain}`, value: `${label}=${token}` }
}

export const organizationSsoApi = api.injectEndpoints({
  endpoints: (build) => ({
    listSsoProviders: build.query<{ providers: SsoProviderSummary[] }, void>({
      query: () => '/sso/providers',
    }),
    registerSsoProvider: build.mutation<RegisteredSsoProvider, RegisterSsoBody>({
      query: (body) => ({ url: '/sso/register', method: 'POST', body }),
    }),
    requestDomainVerification: build.mutation<{ domainVerificationToken: string }, { providerId: string }>({
      query: (body) => ({ url: '/sso/request-domain-verification', method: 'POST', body }),
    }),
    verifyDomain: build.mutation<null, { providerId: string }>({
      query: (body) => ({ url: '/sso/verify-domain', method: 'POST', body }),
    }),
    setSsoRequirement: build.mutation<
      SsoProviderSummary,
      { providerId: string; required: boolean; domain: string }
    >({ query: (body) => ({ url: '/sso/set-sso-requirement', method: 'POST', body }) }),
  }),
})

export const {
  useListSsoProvidersQuery,
  useRegisterSsoProviderMutation,
  useRequestDomainVerificationMutation,
  useVerifyDomainMutation,
  useSetSsoRequirementMutation,
} = organizationSsoApi
