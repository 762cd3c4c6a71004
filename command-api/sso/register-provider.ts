/// POST /sso/register: an organization's owner or admin (or an operator with a server key) adds an
/// OpenID Connect or SAML identity provider for an email domain. An OIDC issuer is discovered here,
/// once, and every address it names must pass the IdP address rule (infra/sso/idp-address.ts).

import type { Static } from 'typebox'
import { DomainError } from '../../domain/shared/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { joinDomains, parseDomains } from '../../domain/sso/sso-domains.js'
import { SSO_ERRORS } from '../../domain/sso/sso-errors.js'
import { ssoProviderDecider } from '../../domain/sso/sso-provider.js'
import type { OidcSettings, ProviderSecrets, SamlSettings } from '../../domain/sso/sso-settings.js'
import { ALPHANUMERIC, randomToken } from '../../infra/crypto/tokens.js'
import { BUILT_IN_PROVIDERS } from '../../infra/oauth/provider-catalogue.js'
import { isReachableIdpUrl } from '../../infra/sso/idp-address.js'
import { DiscoveryError, discoverOidc } from '../../infra/sso/oidc-discovery.js'
import type { CommandContext } from '../context.js'
import { decideAheadWithoutHistory } from '../shared/decide-ahead.js'
import { checkSamlConfig, type SamlProviderConfig } from '../sso-saml/index.js'
import { managerOf, organizationOf, runSsoCommand, type SsoCaller } from './sso-caller.js'
import { type RegisteredProvider, registeredProviderJson } from './sso-presenter.js'
import type { OidcConfigBody, RegisterBody, SamlConfigBody } from './sso-schemas.js'

const VERIFICATION_LIFETIME_MS = 7 * 24 * 3600 * 1000
const RESERVED_IDS = new Set(['credential', 'email-password', 'email-otp', 'magic-link', 'passkey', 'sso'])

type OidcBody = Static<typeof OidcConfigBody>

/** Every address the registration names must be one Tessera may call. */
const refuseUnreachable = (ctx: CommandContext, urls: readonly (string | undefined)[]) => {
  for (const url of urls)
    if (url !== undefined && !isReachableIdpUrl(url, ctx.config.trustedOrigins))
      throw SSO_ERRORS.error('UNTRUSTED_IDP_ADDRESS')
}

/** The OIDC settings to store: the body's, with the endpoints discovery found for what it left out. */
export const oidcSettingsOf = async (
  ctx: CommandContext,
  issuer: string,
  body: OidcBody,
  overrideUserInfo: boolean,
): Promise<OidcSettings> => {
  const given = {
    ...(body.discoveryEndpoint ? { discoveryEndpoint: body.discoveryEndpoint } : {}),
    ...(body.authorizationEndpoint ? { authorizationEndpoint: body.authorizationEndpoint } : {}),
    ...(body.tokenEndpoint ? { tokenEndpoint: body.tokenEndpoint } : {}),
    ...(body.jwksEndpoint ? { jwksEndpoint: body.jwksEndpoint } : {}),
    ...(body.userInfoEndpoint ? { userInfoEndpoint: body.userInfoEndpoint } : {}),
  }
  refuseUnreachable(ctx, [issuer, ...Object.values(given)])
  const endpoints = body.skipDiscovery
    ? {
        discoveryEndpoint:
          given.discoveryEndpoint ?? `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
        authorizationEndpoint: given.authorizationEndpoint ?? null,
        tokenEndpoint: given.tokenEndpoint ?? null,
        jwksEndpoint: given.jwksEndpoint ?? null,
        userInfoEndpoint: given.userInfoEndpoint ?? null,
      }
    : await discovered(ctx, issuer, given)
  return {
    issuer,
    clientId: body.clientId,
    pkce: body.pkce ?? true,
    ...endpoints,
    tokenEndpointAuthentication: body.tokenEndpointAuthentication ?? 'client_secret_basic',
    scopes: body.scopes ?? null,
    mapping: body.mapping ?? null,
    overrideUserInfo:
      overrideUserInfo || body.overrideUserInfo === true || ctx.config.sso.defaultOverrideUserInfo,
  }
}

const discovered = async (ctx: CommandContext, issuer: string, given: Parameters<typeof discoverOidc>[1]) => {
  try {
    return await discoverOidc(issuer, given, ctx.config.trustedOrigins)
  } catch (error) {
    if (!(error instanceof DiscoveryError)) throw error
    const { code, status, message } = SSO_ERRORS.DISCOVERY_FAILED
    throw new DomainError(code, status, `${message}: ${error.message}`)
  }
}

/** The SAML settings to store, its private keys taken out to be sealed apart. */
export const samlSettingsOf = (body: Static<typeof SamlConfigBody>) => {
  const { privateKey, spMetadata, ...rest } = body
  const { privateKey: spPrivateKey, ...spRest } = spMetadata ?? {}
  const hasEntryPoint = URL.canParse(body.entryPoint)
  if (!hasEntryPoint && !body.idpMetadata?.metadata && !body.idpMetadata?.singleSignOnService?.length)
    throw SSO_ERRORS.error('SAML_ENTRY_POINT_REQUIRED')
  const settings: SamlSettings = {
    ...rest,
    entryPoint: body.entryPoint,
    cert: typeof body.cert === 'string' ? body.cert : (body.cert?.join('\n') ?? null),
    ...(spMetadata ? { spMetadata: spRest } : {}),
  }
  return { settings, samlPrivateKey: privateKey ?? null, spPrivateKey: spPrivateKey ?? null }
}

/** The engine's register-time checks (certificate, IdP entity id, SSO URL, metadata size, no
 *  encryption): a provider that could never sign anyone in, or would trust any signature, is refused. */
export const refuseUnusableSaml = (
  ctx: CommandContext,
  provider: { providerId: string; issuer: string },
  samlConfig: Static<typeof SamlConfigBody>,
) => {
  const config = {
    ...samlConfig,
    idpMetadata: samlConfig.idpMetadata ?? {},
    ...provider,
  } as SamlProviderConfig
  const refusal = checkSamlConfig(config, ctx.config.sso.saml.maxMetadataSize)
  if (refusal) throw new DomainError(refusal.code, 400, refusal.message)
}

const isReserved = (ctx: CommandContext, providerId: string) =>
  RESERVED_IDS.has(providerId) ||
  Object.hasOwn(BUILT_IN_PROVIDERS, providerId) ||
  Object.hasOwn(ctx.config.socialProviders, providerId)

export const registerSsoProvider = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  caller: SsoCaller,
  body: Static<typeof RegisterBody>,
) => {
  const organizationId = organizationOf(caller, body.organizationId)
  const manager = await managerOf(ctx, caller, organizationId)
  // The decider's verdict before the issuer is fetched: a stranger's registration never reaches the network.
  decideAheadWithoutHistory(ssoProviderDecider, { type: 'admit-registrant', manager })
  const oidcConfig = body.oidcConfig
    ? await oidcSettingsOf(ctx, body.issuer, body.oidcConfig, body.overrideUserInfo === true)
    : null
  const saml = body.samlConfig && !oidcConfig ? samlSettingsOf(body.samlConfig) : null
  if (saml && body.samlConfig) refuseUnusableSaml(ctx, body, body.samlConfig)
  const secrets: ProviderSecrets = {
    clientSecret: body.oidcConfig?.clientSecret ?? null,
    samlPrivateKey: saml?.samlPrivateKey ?? null,
    spPrivateKey: saml?.spPrivateKey ?? null,
  }
  const now = ctx.clock()
  const verification = ctx.config.sso.domainVerification.enabled
    ? {
        token: randomToken(24, ALPHANUMERIC),
        expiresAt: new Date(now.getTime() + VERIFICATION_LIFETIME_MS).toISOString(),
      }
    : null
  const userId = caller.kind === 'user' ? caller.userId : null
  const provider: RegisteredProvider & { verification: typeof verification } = {
    providerId: body.providerId,
    organizationId,
    userId,
    issuer: body.issuer,
    domain: joinDomains(parseDomains(body.domain)),
    oidcConfig,
    samlConfig: saml?.settings ?? null,
    verification,
  }
  await runSsoCommand(ctx, origin, caller, body.providerId, {
    type: 'register-sso-provider',
    ...provider,
    secrets,
    manager,
    reserved: isReserved(ctx, body.providerId),
    registeredByUser: userId ? await ctx.lookups.ssoProviders.countSsoProvidersOfUser(userId) : 0,
    limit: ctx.config.sso.providersLimit,
    now: now.toISOString(),
  })
  return registeredProviderJson(ctx.config, provider)
}
