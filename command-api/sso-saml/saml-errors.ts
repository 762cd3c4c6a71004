/// Every refusal of the SAML engine, with its code and message (the plugin's words where it has
/// them). All are 400 at the assertion consumer service: the IdP's answer, or its configuration, is bad.

export const SAML_ERRORS = {
  SAML_RESPONSE_TOO_LARGE: 'SAML response exceeds maximum allowed size',
  SAML_INVALID_ENCODING: 'Invalid base64-encoded SAML response',
  SAML_INVALID_XML: 'Failed to parse SAML response XML',
  SAML_NOT_A_RESPONSE: 'SAML message is not a Response',
  SAML_STATUS_NOT_SUCCESS: 'The identity provider did not authenticate the user',
  SAML_NO_ASSERTION: 'SAML response contains no assertions',
  SAML_MULTIPLE_ASSERTIONS: 'SAML response contains more than one assertion',
  SAML_ENCRYPTED_ASSERTION_UNSUPPORTED: 'Encrypted SAML assertions are not supported',
  SAML_ASSERTION_SIGNATURE_REQUIRED: 'SAML assertion signature is required',
  SAML_SIGNATURE_INVALID: 'SAML response signature is invalid',
  SAML_ISSUER_MISMATCH: 'SAML assertion issuer does not match the identity provider',
  SAML_AUDIENCE_MISSING: 'SAML assertion is missing an AudienceRestriction',
  SAML_AUDIENCE_MISMATCH: 'SAML assertion audience does not match this Service Provider',
  SAML_BEARER_CONFIRMATION_MISSING: 'SAML assertion is missing bearer SubjectConfirmationData',
  SAML_RECIPIENT_MISMATCH:
    'SAML bearer SubjectConfirmationData Recipient does not match this Service Provider',
  SAML_DESTINATION_MISMATCH: 'SAML response Destination does not match this Service Provider',
  SAML_TIMESTAMPS_MISSING: 'SAML assertion missing required timestamp conditions',
  SAML_ASSERTION_NOT_YET_VALID: 'SAML assertion is not yet valid',
  SAML_ASSERTION_EXPIRED: 'SAML assertion has expired',
  SAML_IN_RESPONSE_TO_MISMATCH: 'Unknown or expired request ID',
  SAML_ASSERTION_REPLAYED: 'SAML assertion has already been used',
  SAML_PROFILE_INCOMPLETE: 'Unable to extract user ID or email from SAML response',
  SAML_CONFIG_INVALID: 'Invalid SAML configuration',
} as const

export type SamlErrorCode = keyof typeof SAML_ERRORS

export type SamlRefusal = { ok: false; code: SamlErrorCode; message: string }

export const refuse = (code: SamlErrorCode, message: string = SAML_ERRORS[code]): SamlRefusal => ({
  ok: false,
  code,
  message,
})

/** Thrown inside the engine's steps and turned into a refusal at its edge; never leaves the module. */
export class SamlCheckFailed extends Error {
  constructor(readonly refusal: SamlRefusal) {
    super(refusal.message)
  }
}

export const fail = (code: SamlErrorCode, message?: string): never => {
  throw new SamlCheckFailed(refuse(code, message))
}
