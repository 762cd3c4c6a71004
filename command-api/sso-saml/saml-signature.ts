/// Finds the one assertion in a Response and returns it as the IdP signed it. samlify (xml-crypto)
/// checks the XML signature against the configured certificate and hands back the signed
/// reference's bytes; everything after this step reads those bytes and nothing else, which is what
/// defeats signature wrapping (a second, unsigned assertion beside or around the signed one).

import { type Element, XMLSerializer } from '@xmldom/xmldom'
import * as samlify from 'samlify'
import type { SamlProviderConfig } from './saml-config.js'
import { type IdentityProvider, idpSigningCerts } from './saml-entities.js'
import { fail } from './saml-errors.js'
import { attributeOf, childElements, descendantCount, NS, parseSamlXml } from './saml-xml.js'

/** The Response's sole assertion; an encrypted one, none or several are refused. */
export const soleAssertion = (response: Element): Element => {
  if (descendantCount(response, NS.assertion, 'EncryptedAssertion') > 0)
    fail('SAML_ENCRYPTED_ASSERTION_UNSUPPORTED')
  const anywhere = descendantCount(response, NS.assertion, 'Assertion')
  if (anywhere > 1) fail('SAML_MULTIPLE_ASSERTIONS')
  return childElements(response, NS.assertion, 'Assertion')[0] ?? fail('SAML_NO_ASSERTION')
}

/**
 * The verified assertion. With `wantAssertionsSigned` the assertion's own signature must verify
 * (the Response's is set aside first, as the plugin does); otherwise a signed Response that
 * holds the assertion is enough. No signature at all is refused, whatever the configuration.
 */
export const verifiedAssertion = (
  config: SamlProviderConfig,
  idp: IdentityProvider,
  response: Element,
  xml: string,
): Element => {
  const assertion = soleAssertion(response)
  const responseSignatures = childElements(response, NS.dsig, 'Signature')
  const assertionSigned = childElements(assertion, NS.dsig, 'Signature').length > 0
  if (!assertionSigned && (config.wantAssertionsSigned || responseSignatures.length === 0))
    fail('SAML_ASSERTION_SIGNATURE_REQUIRED')
  if (idpSigningCerts(idp).length === 0)
    fail('SAML_CONFIG_INVALID', 'The identity provider has no signing certificate')
  let toVerify = xml
  if (config.wantAssertionsSigned) {
    for (const signature of responseSignatures) response.removeChild(signature)
    toVerify = new XMLSerializer().serializeToString(response)
  }
  const signed = parseSamlXml(verify(idp, toVerify))
  if (signed.namespaceURI !== NS.assertion || signed.localName !== 'Assertion') fail('SAML_SIGNATURE_INVALID')
  // The signed bytes must be the assertion the Response carries, not one smuggled elsewhere.
  if (attributeOf(signed, 'ID') !== attributeOf(assertion, 'ID')) fail('SAML_SIGNATURE_INVALID')
  return signed
}

const verify = (idp: IdentityProvider, xml: string): string => {
  let result: [boolean, string | null]
  try {
    result = samlify.SamlLib.verifySignature(xml, { metadata: idp.entityMeta })
  } catch {
    // samlify throws on a wrapping attempt or a certificate the metadata does not declare
    return fail('SAML_SIGNATURE_INVALID')
  }
  const [verified, assertionXml] = result
  return verified && assertionXml ? assertionXml : fail('SAML_SIGNATURE_INVALID')
}
