/// A SAML provider's configuration, in @better-auth/sso 1.7.5's `samlConfig` shape (what
/// `/sso/register` stores), plus the provider's id and issuer, and the URLs Tessera answers at.
/// The shape is the plugin's so a provider registered through its client works unchanged.

export type SamlMapping = {
  email?: string
  emailVerified?: string
  name?: string
  firstName?: string
  lastName?: string
  extraFields?: Record<string, string>
}

export type SamlEndpoint = { Binding: string; Location: string }

export type SamlIdpMetadata = {
  /** IdP metadata XML; when set, the SSO URL, entity id and certificates come from it. */
  metadata?: string
  entityID?: string
  /** IdP signing certificate(s), PEM; wins over the top-level `cert`. */
  cert?: string | string[]
  singleSignOnService?: SamlEndpoint[]
  singleLogoutService?: SamlEndpoint[]
  isAssertionEncrypted?: boolean
}

export type SamlSpMetadata = {
  metadata?: string
  entityID?: string
  binding?: string
  privateKey?: string
  privateKeyPass?: string
  isAssertionEncrypted?: boolean
}

export type SamlProviderConfig = {
  providerId: string
  /** The provider's issuer; the SP entity id when `spMetadata.entityID` is not set (as the plugin). */
  issuer: string
  entryPoint: string
  cert?: string | string[]
  audience?: string
  callbackUrl?: string
  idpInitiatedCallbackUrl?: string
  idpMetadata: SamlIdpMetadata
  spMetadata?: SamlSpMetadata
  wantAssertionsSigned?: boolean
  authnRequestsSigned?: boolean
  signatureAlgorithm?: string
  digestAlgorithm?: string
  identifierFormat?: string
  privateKey?: string
  mapping?: SamlMapping
}

/** The assertion consumer service, on the plugin's path: the IdP posts its answer here. */
export const acsUrl = (config: Pick<SamlProviderConfig, 'providerId'>, baseUrl: string): string =>
  `${trimSlash(baseUrl)}/sso/saml2/sp/acs/${encodeURIComponent(config.providerId)}`

/** Where the IdP's administrator reads our metadata (the plugin's route). */
export const spMetadataUrl = (config: Pick<SamlProviderConfig, 'providerId'>, baseUrl: string): string =>
  `${trimSlash(baseUrl)}/sso/saml2/sp/metadata?providerId=${encodeURIComponent(config.providerId)}`

export const spEntityId = (config: SamlProviderConfig): string => config.spMetadata?.entityID || config.issuer

/** The audiences an assertion may name: our entity id, or the configured one (the plugin's rule). */
export const expectedAudiences = (config: SamlProviderConfig): string[] =>
  [spEntityId(config), config.audience].filter((value): value is string => !!value)

/** The IdP signing certificates we trust, `idpMetadata.cert` first as the plugin; none from metadata XML here. */
export const configuredSigningCerts = (config: SamlProviderConfig): string[] | undefined => {
  const cert = config.idpMetadata.cert ?? config.cert
  if (cert === undefined) return undefined
  return Array.isArray(cert) ? cert : [cert]
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '')
