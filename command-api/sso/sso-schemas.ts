/// The bodies of the SSO routes, in `@better-auth/sso` 1.7.5's shapes (routes/schemas.ts of the
/// plugin). Unknown keys are refused; SAML key passwords and encryption keys are not taken (the SAML
/// engine has no use for them yet).

import { Type } from 'typebox'

const Strict = { additionalProperties: false } as const
const Text = (maxLength = 2048) => Type.String({ minLength: 1, maxLength })
const Url = Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://' })
const Pem = Type.String({ minLength: 1, maxLength: 65_536 })
export const ProviderId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
})
const ONE_DOMAIN = '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}'
/** One email domain. */
export const Domain = Type.String({ minLength: 3, maxLength: 253, pattern: `^${ONE_DOMAIN}$` })
/** One email domain or a comma-separated list of them, as the plugin takes (`acme.com,acme.de`). */
export const DomainList = Type.String({
  minLength: 3,
  maxLength: 2048,
  pattern: `^\\s*${ONE_DOMAIN}(?:\\s*,\\s*${ONE_DOMAIN})*\\s*$`,
})

const OidcMapping = Type.Object(
  {
    email: Text(256),
    emailVerified: Type.Optional(Text(256)),
    name: Text(256),
    image: Type.Optional(Text(256)),
    extraFields: Type.Optional(Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 256 }))),
  },
  Strict,
)

const oidcFields = {
  clientId: Text(512),
  clientSecret: Type.Optional(Text(4096)),
  authorizationEndpoint: Type.Optional(Url),
  tokenEndpoint: Type.Optional(Url),
  userInfoEndpoint: Type.Optional(Url),
  tokenEndpointAuthentication: Type.Optional(
    Type.Union([Type.Literal('client_secret_basic'), Type.Literal('client_secret_post')]),
  ),
  jwksEndpoint: Type.Optional(Url),
  discoveryEndpoint: Type.Optional(Url),
  skipDiscovery: Type.Optional(Type.Boolean()),
  scopes: Type.Optional(Type.Array(Text(256), { maxItems: 50 })),
  pkce: Type.Optional(Type.Boolean()),
  overrideUserInfo: Type.Optional(Type.Boolean()),
  mapping: Type.Optional(OidcMapping),
}

export const OidcConfigBody = Type.Object(oidcFields, Strict)
export const OidcConfigUpdateBody = Type.Partial(Type.Object(oidcFields, Strict))

const Service = Type.Object({ Binding: Text(256), Location: Url }, Strict)
const Cert = Type.Union([Pem, Type.Array(Pem, { minItems: 1, maxItems: 5 })])
const SamlMapping = Type.Object(
  {
    email: Text(256),
    emailVerified: Type.Optional(Text(256)),
    name: Text(256),
    firstName: Type.Optional(Text(256)),
    lastName: Type.Optional(Text(256)),
    extraFields: Type.Optional(Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 256 }))),
  },
  Strict,
)

const samlFields = {
  entryPoint: Url,
  cert: Type.Optional(Cert),
  audience: Type.Optional(Text()),
  callbackUrl: Type.Optional(Text()),
  idpInitiatedCallbackUrl: Type.Optional(Text()),
  idpMetadata: Type.Optional(
    Type.Object(
      {
        metadata: Type.Optional(Type.String({ minLength: 1, maxLength: 102_400 })),
        entityID: Type.Optional(Text()),
        cert: Type.Optional(Cert),
        singleSignOnService: Type.Optional(Type.Array(Service, { maxItems: 10 })),
        singleLogoutService: Type.Optional(Type.Array(Service, { maxItems: 10 })),
      },
      Strict,
    ),
  ),
  spMetadata: Type.Optional(
    Type.Object(
      {
        metadata: Type.Optional(Type.String({ minLength: 1, maxLength: 102_400 })),
        entityID: Type.Optional(Text()),
        binding: Type.Optional(Text(256)),
        privateKey: Type.Optional(Pem),
      },
      Strict,
    ),
  ),
  wantAssertionsSigned: Type.Optional(Type.Boolean()),
  authnRequestsSigned: Type.Optional(Type.Boolean()),
  signatureAlgorithm: Type.Optional(Text(256)),
  digestAlgorithm: Type.Optional(Text(256)),
  identifierFormat: Type.Optional(Text(512)),
  privateKey: Type.Optional(Pem),
  mapping: Type.Optional(SamlMapping),
}

export const SamlConfigBody = Type.Object(samlFields, Strict)
export const SamlConfigUpdateBody = Type.Partial(Type.Object(samlFields, Strict))

export const RegisterBody = Type.Object(
  {
    providerId: ProviderId,
    issuer: Url,
    domain: DomainList,
    oidcConfig: Type.Optional(OidcConfigBody),
    samlConfig: Type.Optional(SamlConfigBody),
    organizationId: Type.Optional(Text(256)),
    overrideUserInfo: Type.Optional(Type.Boolean()),
  },
  Strict,
)

export const UpdateBody = Type.Object(
  {
    providerId: ProviderId,
    issuer: Type.Optional(Url),
    domain: Type.Optional(DomainList),
    oidcConfig: Type.Optional(OidcConfigUpdateBody),
    samlConfig: Type.Optional(SamlConfigUpdateBody),
  },
  Strict,
)

export const ProviderBody = Type.Object({ providerId: ProviderId }, Strict)

/** `domain`: one of the provider's domains (Tessera's); absent: every one of them. */
export const RequireSsoBody = Type.Object(
  { providerId: ProviderId, required: Type.Boolean(), domain: Type.Optional(Domain) },
  Strict,
)

export const SignInSsoBody = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 320 })),
    organizationSlug: Type.Optional(Type.String({ maxLength: 256 })),
    providerId: Type.Optional(Type.String({ maxLength: 64 })),
    domain: Type.Optional(Type.String({ maxLength: 253 })),
    callbackURL: Text(),
    errorCallbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    newUserCallbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
    scopes: Type.Optional(Type.Array(Text(256), { maxItems: 50 })),
    loginHint: Type.Optional(Type.String({ maxLength: 512 })),
    // The OpenID provider's signed authorization request (oauth-provider/oauth-continue.hook.ts).
    oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
    additionalParams: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 512 })),
    ),
    requestSignUp: Type.Optional(Type.Boolean()),
    providerType: Type.Optional(Type.Union([Type.Literal('oidc'), Type.Literal('saml')])),
  },
  Strict,
)
