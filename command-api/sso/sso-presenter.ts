/// SSO providers as `@better-auth/sso` answers them: the full shape once, when registered (without
/// the client secret: a departure, Tessera never echoes a secret), and the sanitized shape of
/// get-provider, providers and update-provider (client id masked, no secret, no private key).

import type { OidcSettings, SamlSettings } from '../../domain/sso/sso-settings.js'
import type { SsoProviderRow } from '../../http/ports/sso-provider-lookup.js'
import type { Config } from '../../infra/config/config.js'

export const ssoRedirectUri = (config: Config, providerId: string): string =>
  `${config.baseUrl}${config.basePath}/sso/callback/${encodeURIComponent(providerId)}`

const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T))

const maskClientId = (clientId: string): string =>
  clientId.length <= 4 ? '****' : `****${clientId.slice(-4)}`

const sanitizedOidc = (oidc: OidcSettings) => ({
  discoveryEndpoint: oidc.discoveryEndpoint,
  clientIdLastFour: maskClientId(oidc.clientId),
  pkce: oidc.pkce,
  authorizationEndpoint: oidc.authorizationEndpoint ?? undefined,
  tokenEndpoint: oidc.tokenEndpoint ?? undefined,
  userInfoEndpoint: oidc.userInfoEndpoint ?? undefined,
  jwksEndpoint: oidc.jwksEndpoint ?? undefined,
  scopes: oidc.scopes ?? undefined,
  tokenEndpointAuthentication: oidc.tokenEndpointAuthentication,
})

const sanitizedSaml = (saml: SamlSettings) => {
  const pick = (key: string) => (saml[key] === undefined || saml[key] === null ? undefined : saml[key])
  return {
    entryPoint: saml.entryPoint ?? undefined,
    callbackUrl: pick('callbackUrl'),
    idpInitiatedCallbackUrl: pick('idpInitiatedCallbackUrl'),
    audience: pick('audience'),
    wantAssertionsSigned: pick('wantAssertionsSigned'),
    authnRequestsSigned: pick('authnRequestsSigned'),
    identifierFormat: pick('identifierFormat'),
    signatureAlgorithm: pick('signatureAlgorithm'),
    digestAlgorithm: pick('digestAlgorithm'),
  }
}

export const sanitizedProviderJson = (config: Config, row: SsoProviderRow) => {
  const oidc = parsed<OidcSettings>(row.oidc_config)
  const saml = parsed<SamlSettings>(row.saml_config)
  return {
    providerId: row.provider_id,
    type: saml ? 'saml' : 'oidc',
    issuer: row.issuer,
    domain: row.domain,
    organizationId: row.organization_id,
    domainVerified: row.domain_verified,
    // Tessera's: whether the organization requires this provider for some domain, and per domain
    // which are verified and which require it (`domain` may list several, comma-separated).
    ssoRequired: row.sso_required,
    verifiedDomains: JSON.parse(row.verified_domains) as string[],
    ssoRequiredDomains: JSON.parse(row.sso_required_domains) as string[],
    ...(oidc ? { oidcConfig: sanitizedOidc(oidc) } : {}),
    ...(saml ? { samlConfig: sanitizedSaml(saml) } : {}),
    spMetadataUrl: `${config.baseUrl}${config.basePath}/sso/saml2/sp/metadata?providerId=${encodeURIComponent(row.provider_id)}`,
  }
}

export type RegisteredProvider = {
  providerId: string
  organizationId: string
  userId: string | null
  issuer: string
  domain: string
  oidcConfig: OidcSettings | null
  samlConfig: SamlSettings | null
  verification: { token: string } | null
}

/** The answer to /sso/register: the stored provider, its redirect URI, and the DNS token when asked. */
export const registeredProviderJson = (config: Config, provider: RegisteredProvider) => ({
  providerId: provider.providerId,
  issuer: provider.issuer,
  domain: provider.domain,
  organizationId: provider.organizationId,
  userId: provider.userId,
  oidcConfig: provider.oidcConfig,
  samlConfig: provider.samlConfig,
  redirectURI: ssoRedirectUri(config, provider.providerId),
  ...(config.sso.domainVerification.enabled
    ? { domainVerified: false, domainVerificationToken: provider.verification?.token }
    : {}),
})
