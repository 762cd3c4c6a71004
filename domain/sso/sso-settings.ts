/// What an SSO provider is configured with, in `@better-auth/sso`'s field names, and who may manage
/// it. Secrets are kept apart from the rest (`ProviderSecrets`) so they are sealed on their own.

/** How an IdP's claims map onto a person (the plugin's `mapping`). */
export type ClaimMapping = {
  id?: string
  email?: string
  emailVerified?: string
  name?: string
  image?: string
  extraFields?: Record<string, string>
}

export type TokenEndpointAuthentication = 'client_secret_basic' | 'client_secret_post'

/** The OIDC configuration as stored: the plugin's shape without `clientSecret`. */
export type OidcSettings = {
  issuer: string
  clientId: string
  pkce: boolean
  discoveryEndpoint: string
  authorizationEndpoint: string | null
  tokenEndpoint: string | null
  userInfoEndpoint: string | null
  jwksEndpoint: string | null
  tokenEndpointAuthentication: TokenEndpointAuthentication
  scopes: string[] | null
  mapping: ClaimMapping | null
  overrideUserInfo: boolean
}

/**
 * The SAML configuration as stored: the plugin's fields (entryPoint, cert, audience, callbackUrl,
 * idpMetadata, spMetadata, wantAssertionsSigned, authnRequestsSigned, signatureAlgorithm,
 * digestAlgorithm, identifierFormat, mapping), private keys taken out into `ProviderSecrets`.
 */
export type SamlSettings = { entryPoint: string | null; cert: string | null } & Record<string, unknown>

export type ProviderSecrets = {
  clientSecret: string | null
  /** `samlConfig.privateKey`: signs AuthnRequests. */
  samlPrivateKey: string | null
  /** `samlConfig.spMetadata.privateKey`. */
  spPrivateKey: string | null
}

/** Who asks: an operator (server key), a member of the organization with their roles, or neither. */
export type SsoManager =
  | { kind: 'operator' }
  | { kind: 'member'; roles: readonly string[] }
  | { kind: 'stranger' }

/** Owners and admins manage their organization's providers (the plugin's rule); operators any. */
export const mayManage = (manager: SsoManager): boolean =>
  manager.kind === 'operator' ||
  (manager.kind === 'member' && manager.roles.some((role) => role === 'owner' || role === 'admin'))
