/// The register-time checks on a `samlConfig` (the plugin's, in its words), so a provider that
/// could never sign anyone in, or would trust any certificate, is refused when it is added.

import type { SamlProviderConfig } from './saml-config.js'
import { identityProvider, idpSigningCerts } from './saml-entities.js'
import { refuse, SamlCheckFailed, type SamlRefusal } from './saml-errors.js'

/** The plugin's `saml.maxMetadataSize` default. */
export const DEFAULT_MAX_METADATA_BYTES = 100 * 1024

const invalid = (message: string): SamlRefusal => refuse('SAML_CONFIG_INVALID', message)

const isHttpUrl = (value: string | undefined): boolean => {
  if (!value) return false
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const tooLarge = (xml: string | undefined, max: number): boolean =>
  !!xml && Buffer.byteLength(xml, 'utf8') > max

/** null when the configuration is usable; the first problem otherwise. */
export const checkSamlConfig = (
  config: SamlProviderConfig,
  maxMetadataBytes: number = DEFAULT_MAX_METADATA_BYTES,
): SamlRefusal | null => {
  const idp = config.idpMetadata
  if (tooLarge(idp?.metadata, maxMetadataBytes) || tooLarge(config.spMetadata?.metadata, maxMetadataBytes))
    return invalid(`SAML metadata exceeds maximum allowed size (${maxMetadataBytes} bytes)`)
  if (!idp?.metadata && idp?.cert === undefined && config.cert === undefined)
    return invalid(
      'samlConfig requires either a signing certificate (cert or idpMetadata.cert) or an idpMetadata.metadata XML document.',
    )
  if (!idp.metadata && !idp.entityID)
    return invalid(
      'SAML manual IdP configuration requires idpMetadata.entityID; issuer identifies the service provider and cannot identify the IdP',
    )
  if (!idp.metadata && !isHttpUrl(config.entryPoint) && !idp.singleSignOnService?.length)
    return invalid(
      'SAML configuration requires either idpMetadata.metadata (IdP metadata XML), idpMetadata.singleSignOnService, or a valid entryPoint URL',
    )
  if (idp.isAssertionEncrypted || config.spMetadata?.isAssertionEncrypted)
    return refuse('SAML_ENCRYPTED_ASSERTION_UNSUPPORTED')
  return checkBuildable(config)
}

/** samlify must read the metadata and find a certificate in it: with none it would trust any. */
const checkBuildable = (config: SamlProviderConfig): SamlRefusal | null => {
  try {
    if (idpSigningCerts(identityProvider(config)).length === 0)
      return invalid('The identity provider has no signing certificate')
    return null
  } catch (error) {
    if (error instanceof SamlCheckFailed) return error.refusal
    return invalid('SAML identity provider metadata could not be read')
  }
}
