/// The errors of enterprise single sign-on, declared once with code, status and the message
/// `@better-auth/sso` 1.7.5 answers (the plugin sends messages without codes; the codes are ours).
/// `SSO_REQUIRED` is Tessera's: the plugin has no "require SSO" (a departure listed in the README).

import { defineErrors } from '../shared/errors.js'

export const SSO_ERRORS = defineErrors({
  SSO_PROVIDER_REGISTRATION_DISABLED: [403, 'SSO provider registration is disabled'],
  SSO_PROVIDER_LIMIT_REACHED: [403, 'You have reached the maximum number of SSO providers'],
  NOT_A_MEMBER_OF_THE_ORGANIZATION: [400, 'You are not a member of the organization'],
  NOT_ALLOWED_TO_REGISTER_SSO_PROVIDER: [
    403,
    'You must be an organization owner or admin to register SSO providers',
  ],
  SSO_PROVIDER_ID_RESERVED: [422, 'This providerId is reserved and cannot be used for an SSO provider'],
  SSO_PROVIDER_ALREADY_EXISTS: [422, 'SSO provider with this providerId already exists'],
  SSO_CONFIG_REQUIRED: [400, 'Either oidcConfig or samlConfig is required'],
  CLIENT_SECRET_REQUIRED: [
    400,
    'clientSecret is required when using client_secret_basic or client_secret_post authentication',
  ],
  SAML_ENTRY_POINT_REQUIRED: [
    400,
    'SAML configuration requires either idpMetadata.metadata (IdP metadata XML), idpMetadata.singleSignOnService, or a valid entryPoint URL',
  ],
  SSO_PROVIDER_NOT_FOUND: [404, 'Provider not found'],
  NO_ACCESS_TO_SSO_PROVIDER: [403, "You don't have access to this provider"],
  NO_FIELDS_TO_UPDATE: [400, 'No fields provided for update'],
  CANNOT_UPDATE_OIDC_CONFIG: [
    400,
    "Cannot update OIDC config for a provider that doesn't have OIDC configured",
  ],
  CANNOT_UPDATE_SAML_CONFIG: [
    400,
    "Cannot update SAML config for a provider that doesn't have SAML configured",
  ],
  DOMAIN_VERIFIED: [409, 'Domain has already been verified'],
  NO_PENDING_VERIFICATION: [404, 'No pending domain verification exists'],
  IDENTIFIER_TOO_LONG: [400, 'Verification identifier exceeds the DNS label limit of 63 characters'],
  DOMAIN_VERIFICATION_FAILED: [502, 'Unable to verify domain ownership. Try again later'],
  PROVIDER_DOMAIN_NOT_VERIFIED: [401, 'Provider domain has not been verified'],
  NO_SSO_PROVIDER_FOUND: [404, 'No provider found for the issuer'],
  SSO_IDENTIFIER_REQUIRED: [400, 'email, organizationSlug, domain or providerId is required'],
  OIDC_NOT_CONFIGURED: [400, 'OIDC provider is not configured'],
  SAML_NOT_CONFIGURED: [400, 'SAML provider is not configured'],
  /** The register-time check of a samlConfig; the message says which part (the plugin's words). */
  SAML_CONFIG_INVALID: [400, 'Invalid SAML configuration'],
  /** Tessera reads no encrypted assertion (a departure listed in the README). */
  SAML_ENCRYPTED_ASSERTION_UNSUPPORTED: [400, 'Encrypted SAML assertions are not supported'],
  NO_SAML_PROVIDER_FOUND: [404, 'No provider found for the given providerId'],
  SAML_RESPONSE_REQUIRED: [400, 'SAMLResponse is required for POST requests'],
  /** Tessera's: an organization requires its verified domain's people to sign in through its IdP. */
  SSO_REQUIRED: [403, 'Your organization requires single sign-on for this address; sign in with SSO'],
  /** Tessera's: requiring SSO is only possible for a verified domain (else anyone could lock out an address). */
  SSO_REQUIREMENT_NEEDS_VERIFIED_DOMAIN: [
    403,
    'Single sign-on can be required only for a verified domain; verify the domain first',
  ],
  /** Tessera's: a require-SSO change names a domain the provider does not have. */
  SSO_DOMAIN_NOT_FOUND: [404, 'The domain is not one of the provider’s domains'],
  UNTRUSTED_IDP_ADDRESS: [
    400,
    "The identity provider's address is loopback or private and its origin is not trusted",
  ],
  DISCOVERY_FAILED: [400, 'OIDC discovery failed for the issuer'],
})

export type SsoErrorCode = Parameters<typeof SSO_ERRORS.error>[0]
