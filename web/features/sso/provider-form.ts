import type { RegisterSsoBody } from './organization-sso.api.js'

/// The "add an identity provider" form's values, their checks in words, and the `/sso/register`
/// body they make. A SAML provider given as IdP metadata XML has its entity id and sign-in address
/// read from the XML here, so the owner pastes one thing.

export type Protocol = 'oidc' | 'saml'
export type SamlSource = 'metadata' | 'manual'

export type ProviderForm = {
  protocol: Protocol
  providerId: string
  domains: string
  issuer: string
  clientId: string
  clientSecret: string
  discoveryEndpoint: string
  samlSource: SamlSource
  metadata: string
  entityId: string
  ssoUrl: string
  certificate: string
}

export type ProviderField = Exclude<keyof ProviderForm, 'protocol' | 'samlSource'>

export const emptyProviderForm = (): ProviderForm => ({
  protocol: 'oidc',
  providerId: '',
  domains: '',
  issuer: '',
  clientId: '',
  clientSecret: '',
  discoveryEndpoint: '',
  samlSource: 'metadata',
  metadata: '',
  entityId: '',
  ssoUrl: '',
  certificate: '',
})

const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i
const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

const isWebAddress = (value: string) => /^https?:\/\/\S+$/.test(value.trim()) && URL.canParse(value.trim())

export const splitDomains = (text: string): string[] =>
  text
    .split(/[,\s]+/)
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean)

const checkDomains = (text: string): string | null => {
  const domains = splitDomains(text)
  if (domains.length === 0) return 'Enter the email domain(s) its people use, like example.com.'
  const bad = domains.find((domain) => !DOMAIN.test(domain))
  return bad ? `${bad} is not a domain. Use names like example.com, separated by commas.` : null
}

const required = (value: string, what: string) => (value.trim() === '' ? `Enter ${what}.` : null)
const address = (value: string, what: string) =>
  required(value, what) ?? (isWebAddress(value) ? null : `Enter ${what} as a full web address (https://…).`)

/** What the IdP metadata XML names: its entity id and the address people are sent to sign in. */
export const readIdpMetadata = (xml: string): { entityId: string; ssoUrl: string } | null => {
  const doc = new DOMParser().parseFromString(xml, 'application/xml')
  if (doc.getElementsByTagName('parsererror').length > 0) return null
  const descriptor = doc.getElementsByTagNameNS('*', 'EntityDescriptor')[0]
  const services = [...doc.getElementsByTagNameNS('*', 'SingleSignOnService')]
  const service =
    services.find((each) => each.getAttribute('Binding')?.endsWith('HTTP-Redirect')) ?? services[0]
  const entityId = descriptor?.getAttribute('entityID') ?? ''
  const ssoUrl = service?.getAttribute('Location') ?? ''
  return entityId && ssoUrl ? { entityId, ssoUrl } : null
}

export const checkProviderForm = (form: ProviderForm): Partial<Record<ProviderField, string | null>> => {
  const providerId =
    required(form.providerId, 'a short name for the provider') ??
    (PROVIDER_ID.test(form.providerId.trim())
      ? null
      : 'Use letters, digits, dots, dashes or underscores (up to 64), starting with a letter or digit.')
  const common = { providerId, domains: checkDomains(form.domains) }
  if (form.protocol === 'oidc')
    return {
      ...common,
      issuer: address(form.issuer, 'the issuer'),
      clientId: required(form.clientId, 'the client ID'),
      clientSecret: required(form.clientSecret, 'the client secret'),
      discoveryEndpoint:
        form.discoveryEndpoint.trim() === '' || isWebAddress(form.discoveryEndpoint)
          ? null
          : 'Enter the discovery address as a full web address, or leave it empty.',
    }
  if (form.samlSource === 'metadata')
    return {
      ...common,
      metadata:
        required(form.metadata, 'the IdP metadata XML') ??
        (readIdpMetadata(form.metadata)
          ? null
          : 'This XML names no entity ID and sign-in address. Paste the whole metadata document.'),
    }
  return {
    ...common,
    entityId: required(form.entityId, 'the IdP entity ID'),
    ssoUrl: address(form.ssoUrl, 'the SSO URL'),
    certificate: required(form.certificate, 'the IdP signing certificate'),
  }
}

/** Our SAML entity id: the SP metadata address, which names the provider and never moves. */
export const spEntityIdFor = (origin: string, providerId: string) =>
  `${origin}/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`

export const registerBodyOf = (
  form: ProviderForm,
  organizationId: string,
  origin: string,
): RegisterSsoBody => {
  const providerId = form.providerId.trim()
  const common = { providerId, domain: splitDomains(form.domains).join(','), organizationId }
  if (form.protocol === 'oidc') {
    const discovery = form.discoveryEndpoint.trim()
    return {
      ...common,
      issuer: form.issuer.trim(),
      oidcConfig: {
        clientId: form.clientId.trim(),
        clientSecret: form.clientSecret,
        ...(discovery ? { discoveryEndpoint: discovery } : {}),
      },
    }
  }
  const fromXml = form.samlSource === 'metadata' ? readIdpMetadata(form.metadata) : null
  return {
    ...common,
    issuer: spEntityIdFor(origin, providerId),
    samlConfig: fromXml
      ? {
          entryPoint: fromXml.ssoUrl,
          idpMetadata: { metadata: form.metadata.trim() },
          wantAssertionsSigned: true,
        }
      : {
          entryPoint: form.ssoUrl.trim(),
          cert: form.certificate.trim(),
          idpMetadata: { entityID: form.entityId.trim() },
          wantAssertionsSigned: true,
        },
  }
}

/** Where a refusal belongs: under the field it concerns, else at the form's top. */
export const FIELD_OF_CODE: Partial<Record<string, ProviderField>> = {
  SSO_PROVIDER_ALREADY_EXISTS: 'providerId',
  SSO_PROVIDER_ID_RESERVED: 'providerId',
  DISCOVERY_FAILED: 'issuer',
  UNTRUSTED_IDP_ADDRESS: 'issuer',
  SAML_ENTRY_POINT_REQUIRED: 'ssoUrl',
}

/** The server's refusals of a registration, in words an owner can act on. */
export const REGISTER_MESSAGES: Record<string, string> = {
  SSO_PROVIDER_ALREADY_EXISTS: 'A provider already has this name. Choose another.',
  SSO_PROVIDER_ID_RESERVED: 'This name is reserved for another way of signing in. Choose another.',
  DISCOVERY_FAILED:
    'The issuer’s discovery document could not be read. Check the issuer address (and the discovery address, if you gave one).',
  UNTRUSTED_IDP_ADDRESS:
    'This address is on a private network the server is not allowed to reach. Use the provider’s public address.',
  SAML_CONFIG_INVALID: 'The SAML settings cannot be used',
  SAML_ENCRYPTED_ASSERTION_UNSUPPORTED:
    'Encrypted assertions are not supported: turn encryption off at the IdP.',
  SSO_PROVIDER_LIMIT_REACHED: 'You have reached the number of identity providers you may add.',
  SSO_PROVIDER_REGISTRATION_DISABLED: 'Adding identity providers is turned off on this server.',
  NOT_ALLOWED_TO_REGISTER_SSO_PROVIDER:
    'Only the organization’s owners and admins can add an identity provider.',
}
