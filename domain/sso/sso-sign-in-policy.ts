/// The rules of signing in through an organization's identity provider, pure: whether a provider
/// may route a sign-in, whether its word on an address is trusted, and whether an address must
/// sign in through SSO rather than with a password or a social account.

import { DomainError } from '../shared/errors.js'
import { hostOf, matchingDomain } from './sso-domains.js'
import { SSO_ERRORS } from './sso-errors.js'

export type RoutableProvider = {
  providerId: string
  /** The provider's domains (its comma-separated `domain`, parsed). */
  domains: string[]
  /** Every domain proved (the plugin's `domainVerified`). */
  domainVerified: boolean
  verifiedDomains: string[]
  /** The verified domains whose people must sign in through this provider. */
  ssoRequiredDomains: string[]
  protocols: { oidc: boolean; saml: boolean }
}

/** The protocol a sign-in through the provider uses, or the refusal (the plugin's order). */
export const protocolFor = (
  provider: RoutableProvider,
  request: { providerType: 'oidc' | 'saml' | undefined; verificationRequired: boolean },
): 'oidc' | 'saml' => {
  if (request.providerType === 'oidc' && !provider.protocols.oidc)
    throw SSO_ERRORS.error('OIDC_NOT_CONFIGURED')
  if (request.providerType === 'saml' && !provider.protocols.saml)
    throw SSO_ERRORS.error('SAML_NOT_CONFIGURED')
  // When the deployment verifies domains, an unproved one never routes anybody.
  if (request.verificationRequired && !provider.domainVerified)
    throw SSO_ERRORS.error('PROVIDER_DOMAIN_NOT_VERIFIED')
  return provider.protocols.oidc && request.providerType !== 'saml' ? 'oidc' : 'saml'
}

/** Whether `email` sits in one of `domains` (the domain itself or a subdomain of it). */
export const inDomain = (email: string, domains: readonly string[]): boolean =>
  matchingDomain(hostOf(email), domains) !== null

/**
 * The provider vouches for an address (links it to an existing account, updates it) only for its
 * own verified domains: with verification off, anyone could register a provider for any domain.
 */
export const isTrustedFor = (provider: RoutableProvider, email: string): boolean =>
  inDomain(email, provider.verifiedDomains)

/** Refuses a password or social sign-in for an address whose organization requires SSO. */
export const refuseUnlessSsoAllows = (
  email: string,
  providers: readonly RoutableProvider[],
  signInPath: string,
): void => {
  const required = providers.find(
    (provider) => inDomain(email, provider.ssoRequiredDomains) && isTrustedFor(provider, email),
  )
  if (!required) return
  const { code, status, message } = SSO_ERRORS.SSO_REQUIRED
  throw new DomainError(
    code,
    status,
    `${message}: POST ${signInPath} with providerId "${required.providerId}"`,
  )
}
