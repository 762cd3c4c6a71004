/// The SAML 2.0 service-provider engine, on @better-auth/sso 1.7.5's configuration and paths. It
/// holds no state: the caller keeps the AuthnRequest id bound to the browser and passes a port that
/// remembers assertion ids (projections/sso-saml/saml-assertion-claims.ts).

export {
  acsUrl,
  type SamlMapping,
  type SamlProviderConfig,
  spEntityId,
  spMetadataUrl,
} from './saml-config.js'
export { checkSamlConfig, DEFAULT_MAX_METADATA_BYTES } from './saml-config-check.js'
export { SAML_ERRORS, type SamlErrorCode, type SamlRefusal } from './saml-errors.js'
export type { SamlProfile } from './saml-profile.js'
export {
  type ClaimAssertionId,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_SKEW_SECONDS,
  type ReadSamlResponseInput,
  readSamlResponse,
  type SamlSignIn,
} from './saml-response.js'
export { type SamlSignInStart, spMetadata, startSamlSignIn } from './saml-sign-in.js'
