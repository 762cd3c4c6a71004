/// The service-provider side of starting a sign-in, and the metadata the IdP's administrator loads.

import type { SamlProviderConfig } from './saml-config.js'
import { identityProvider, serviceProvider, spMetadataXml } from './saml-entities.js'

/** Our SP metadata XML (entity id, ACS URL, signed-assertion wish), for `/sso/saml2/sp/metadata`. */
export const spMetadata = (config: SamlProviderConfig, baseUrl: string): string =>
  spMetadataXml(config, baseUrl)

export type SamlSignInStart = {
  /** The IdP's SSO URL with the deflated AuthnRequest (HTTP-Redirect binding) and RelayState. */
  url: string
  /** The AuthnRequest's ID: keep it bound to this browser; the answer must carry it in InResponseTo. */
  requestId: string
}

/** Builds the AuthnRequest. samlify makes its ID from a CSPRNG (`_` + UUID v4). */
export const startSamlSignIn = (
  config: SamlProviderConfig,
  input: { baseUrl: string; relayState?: string },
): SamlSignInStart => {
  const sp = serviceProvider(config, input.baseUrl)
  const request = sp.createLoginRequest(
    identityProvider(config),
    'redirect',
    input.relayState ? { relayState: input.relayState } : {},
  )
  return { url: request.context, requestId: request.id }
}
