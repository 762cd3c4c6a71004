/// samlify's service provider (us) and identity provider (theirs), built from a provider's
/// configuration. samlify checks every message against the SAML XML schemas (xmllint compiled to
/// WebAssembly) once a validator is set; it refuses every message until one is.

import * as validator from '@authenio/samlify-node-xmllint'
import * as samlify from 'samlify'
import { acsUrl, configuredSigningCerts, type SamlProviderConfig, spEntityId } from './saml-config.js'
import { fail } from './saml-errors.js'

samlify.setSchemaValidator(validator)

export type ServiceProvider = ReturnType<typeof samlify.ServiceProvider>
export type IdentityProvider = ReturnType<typeof samlify.IdentityProvider>

export const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'
export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'

/** Our metadata: the configured XML, or one built from the entity id and our ACS URL. */
export const spMetadataXml = (config: SamlProviderConfig, baseUrl: string): string => {
  if (config.spMetadata?.metadata) return config.spMetadata.metadata
  return samlify
    .SPMetadata({
      entityID: spEntityId(config),
      assertionConsumerService: [{ Binding: POST_BINDING, Location: acsUrl(config, baseUrl) }],
      wantAssertionsSigned: config.wantAssertionsSigned === true,
      authnRequestsSigned: config.authnRequestsSigned === true,
      ...(config.identifierFormat ? { nameIDFormat: [config.identifierFormat] } : {}),
    })
    .getMetadata()
}

export const serviceProvider = (config: SamlProviderConfig, baseUrl: string): ServiceProvider => {
  const privateKey = config.spMetadata?.privateKey ?? config.privateKey
  return samlify.ServiceProvider({
    metadata: spMetadataXml(config, baseUrl),
    allowCreate: true,
    ...(privateKey ? { privateKey, privateKeyPass: config.spMetadata?.privateKeyPass } : {}),
    ...(config.signatureAlgorithm ? { requestSignatureAlgorithm: config.signatureAlgorithm } : {}),
  })
}

/** The IdP: from its metadata XML, or from the entry point, entity id and certificate(s). */
export const identityProvider = (config: SamlProviderConfig): IdentityProvider => {
  const idp = config.idpMetadata
  if (idp.metadata) return samlify.IdentityProvider({ metadata: idp.metadata })
  if (!idp.entityID)
    return fail('SAML_CONFIG_INVALID', 'SAML manual IdP configuration requires idpMetadata.entityID')
  return samlify.IdentityProvider({
    entityID: idp.entityID,
    singleSignOnService: idp.singleSignOnService ?? [
      { Binding: REDIRECT_BINDING, Location: config.entryPoint },
    ],
    signingCert: configuredSigningCerts(config) ?? [],
    wantAuthnRequestsSigned: config.authnRequestsSigned === true,
  })
}

/** The certificates samlify will verify against. Never empty: with none, samlify would trust
 *  the certificate the response itself carries in its KeyInfo. */
export const idpSigningCerts = (idp: IdentityProvider): string[] => {
  const certs = idp.entityMeta.getX509Certificate('signing')
  const list = (Array.isArray(certs) ? certs.flat() : [certs]).filter(
    (cert) => typeof cert === 'string' && cert,
  )
  return list
}
