import { describe, expect, it } from 'vitest'
import { testKeyPair } from '../../tests/support/saml-idp.js'
import type { SamlProviderConfig } from './saml-config.js'
import { checkSamlConfig } from './saml-config-check.js'

const base: SamlProviderConfig = {
  providerId: 'acme',
  issuer: 'https://sp.test',
  entryPoint: 'https://idp.test/sso',
  idpMetadata: { entityID: 'https://idp.test' },
}

describe('a samlConfig at registration', () => {
  it('is refused without any signing certificate, so no response is ever trusted on its own say-so', () => {
    expect(checkSamlConfig(base)).toMatchObject({
      code: 'SAML_CONFIG_INVALID',
      message: expect.stringContaining('signing certificate'),
    })
  })

  it('is refused without the IdP entity id when no metadata XML is given', () => {
    expect(checkSamlConfig({ ...base, cert: 'x', idpMetadata: {} })).toMatchObject({
      message: expect.stringContaining('entityID'),
    })
  })

  it('is refused when IdP metadata carries no certificate, or is too large', () => {
    const metadata = `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.test"><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.test/sso"/></IDPSSODescriptor></EntityDescriptor>`
    expect(checkSamlConfig({ ...base, idpMetadata: { metadata } })).toMatchObject({
      code: 'SAML_CONFIG_INVALID',
    })
    expect(checkSamlConfig({ ...base, idpMetadata: { metadata: 'x'.repeat(200 * 1024) } })).toMatchObject({
      message: expect.stringContaining('maximum allowed size'),
    })
  })

  it('is accepted with an entity id, an SSO URL and a certificate', () => {
    expect(checkSamlConfig({ ...base, cert: testKeyPair().cert })).toBeNull()
  })
})
