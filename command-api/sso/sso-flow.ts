/// POST /sign-in/sso and GET /sso/callback/:providerId for OpenID Connect providers. The protocol
/// (discovery, PKCE S256, nonce, code exchange, id-token signature against the IdP's JWKS, issuer,
/// audience, expiry) is `openid-client`'s, through the same adapter social sign-in uses; the state
/// is social sign-in's too: single use, sealed server-side, bound to the browser by a signed cookie.

import type { RequestOrigin } from '../../domain/shared/metadata.js'
import { SSO_ERRORS } from '../../domain/sso/sso-errors.js'
import type { ActiveProvider } from '../../domain/sso/sso-provider.js'
import { protocolFor } from '../../domain/sso/sso-sign-in-policy.js'
import type { SsoProviderRow } from '../../http/ports/sso-provider-lookup.js'
import { isTrustedOrigin } from '../../infra/http/trusted-url.js'
import { createSocialProvider, OAuthFlowError, type SocialProvider } from '../../infra/oauth/oauth-client.js'
import type { CommandContext } from '../context.js'
import { withError } from '../shared/error-redirect.js'
import { startState, takeState } from '../social/oauth-state.js'
import { startSamlFlow } from '../sso-saml/saml-flow.js'
import {
  completeSsoSignIn,
  SsoFlowError,
  type SsoProviderForSignIn,
  type SsoSignInResult,
} from './complete-sso-sign-in.js'
import { loadProvider } from './load-provider.js'
import { routableOf } from './routable.js'
import { ssoRedirectUri } from './sso-presenter.js'

export type SsoStartInput = {
  email?: string | undefined
  organizationSlug?: string | undefined
  providerId?: string | undefined
  domain?: string | undefined
  providerType?: 'oidc' | 'saml' | undefined
}

/** The provider a sign-in names by id, organization slug or email domain (the plugin's order). */
export const resolveSsoProvider = async (ctx: CommandContext, input: SsoStartInput) => {
  const domain = input.domain || input.email?.split('@')[1]
  if (!input.providerId && !input.organizationSlug && !domain)
    throw SSO_ERRORS.error('SSO_IDENTIFIER_REQUIRED')
  let row: SsoProviderRow | null = null
  if (input.providerId) row = await ctx.lookups.ssoProviders.findSsoProvider(input.providerId)
  else if (input.organizationSlug) {
    const organization = await ctx.lookups.organizations.findOrganizationBySlug(input.organizationSlug)
    row = organization ? await ctx.lookups.ssoProviders.findSsoProviderOfOrganization(organization.id) : null
  } else if (domain) [row = null] = await ctx.lookups.ssoProviders.findSsoProvidersForDomain(domain)
  if (!row) throw SSO_ERRORS.error('NO_SSO_PROVIDER_FOUND')
  const protocol = protocolFor(routableOf(row), {
    providerType: input.providerType,
    verificationRequired: ctx.config.sso.domainVerification.enabled,
  })
  return { row, protocol }
}

const clients = new Map<string, { version: string; client: SocialProvider }>()

/** The openid-client adapter for the provider, made again whenever the provider changed. */
const clientOf = (ctx: CommandContext, provider: ActiveProvider, version: string): SocialProvider => {
  const oidc = provider.oidcConfig
  if (!oidc || !provider.secrets.clientSecret)
    throw new SsoFlowError('invalid_provider', 'provider not found')
  const cached = clients.get(provider.providerId)
  if (cached?.version === version) return cached.client
  const issuer = new URL(oidc.issuer)
  const client = createSocialProvider(
    {
      id: `sso:${provider.providerId}`,
      name: provider.providerId,
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      clientSecret: provider.secrets.clientSecret,
      scopes: oidc.scopes ?? ['offline_access'],
      trusted: false,
      endpoints: {},
      tenantId: null,
      appleKey: null,
      disableSignUp: false,
      disableImplicitSignUp: false,
      overrideUserInfoOnSignIn: false,
    },
    // Plain http only for an IdP whose origin the operator trusts (the address rule held at registration).
    {
      allowInsecureRequests:
        issuer.protocol === 'http:' && isTrustedOrigin(issuer.origin, ctx.config.trustedOrigins),
      tokenAuth: oidc.tokenEndpointAuthentication === 'client_secret_post' ? 'post' : 'basic',
    },
  )
  clients.set(provider.providerId, { version, client })
  return client
}

export type SsoStartBody = SsoStartInput & {
  callbackURL: string
  errorCallbackURL?: string | undefined
  newUserCallbackURL?: string | undefined
  scopes?: string[] | undefined
  loginHint?: string | undefined
  requestSignUp?: boolean | undefined
}

export const startSsoFlow = async (ctx: CommandContext, body: SsoStartBody) => {
  const { row, protocol } = await resolveSsoProvider(ctx, body)
  const provider = await loadProvider(ctx, row.provider_id)
  if (!provider) throw SSO_ERRORS.error('NO_SSO_PROVIDER_FOUND')
  if (protocol === 'saml') return startSamlFlow(ctx, row, provider, body)
  const started = await startState(ctx, {
    providerId: `sso:${row.provider_id}`,
    callbackURL: body.callbackURL,
    errorURL: body.errorCallbackURL || null,
    newUserURL: body.newUserCallbackURL || null,
    link: null,
    requestSignUp: body.requestSignUp === true,
    openId: true,
  })
  const loginHint = body.loginHint || body.email
  const url = await clientOf(ctx, provider, row.updated_at.toISOString()).authorizationUrl({
    redirectUri: ssoRedirectUri(ctx.config, row.provider_id),
    state: started.state,
    codeVerifier: started.data.codeVerifier,
    nonce: started.data.nonce,
    scopes: body.scopes ?? [],
    ...(loginHint ? { loginHint } : {}),
  })
  return {
    url: url.toString(),
    cookie: { ...started.cookie, sameSite: 'lax' as 'lax' | 'none', maxAge: 600 },
  }
}

export type SsoCallbackOutcome = { location: string; signedIn: SsoSignInResult | null }

export const finishSsoFlow = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  input: { providerId: string; params: Record<string, string>; stateCookie: string | undefined },
): Promise<SsoCallbackOutcome> => {
  const { params } = input
  const taken = await takeState(ctx, params.state ?? '', input.stateCookie)
  const fail = (errorURL: string | null, code: string, description?: string): SsoCallbackOutcome => ({
    location: withError(errorURL ?? `${ctx.config.baseUrl}${ctx.config.basePath}/error`, code, description),
    signedIn: null,
  })
  if (!taken.ok || taken.data.providerId !== `sso:${input.providerId}`) return fail(null, 'invalid_state')
  const flow = taken.data
  const errorURL = flow.errorURL ?? flow.callbackURL
  if (params.error || !params.code)
    return fail(
      errorURL,
      params.error || 'invalid_request',
      params.error_description || 'authorization_code_not_found',
    )
  const row = await ctx.lookups.ssoProviders.findSsoProvider(input.providerId)
  const provider = row ? await loadProvider(ctx, input.providerId) : null
  if (!row || !provider?.oidcConfig) return fail(errorURL, 'invalid_provider', 'provider not found')
  if (ctx.config.sso.domainVerification.enabled && !row.domain_verified)
    throw SSO_ERRORS.error('PROVIDER_DOMAIN_NOT_VERIFIED')
  try {
    const identity = await identityFrom(ctx, provider, row, params, flow)
    const forSignIn: SsoProviderForSignIn = {
      ...routableOf(row),
      organizationId: row.organization_id,
      overrideUserInfo: provider.oidcConfig.overrideUserInfo,
    }
    const signedIn = await completeSsoSignIn(ctx, origin, forSignIn, identity, {
      requestSignUp: flow.requestSignUp,
    })
    return {
      location: signedIn.isNewUser ? (flow.newUserURL ?? flow.callbackURL) : flow.callbackURL,
      signedIn,
    }
  } catch (error) {
    if (error instanceof SsoFlowError) return fail(errorURL, error.code, error.description)
    if (error instanceof OAuthFlowError) return fail(errorURL, 'invalid_provider', error.code)
    throw error
  }
}

const claim = (data: Record<string, unknown>, name: string | undefined, fallback: string) => {
  const value = data[name ?? fallback]
  return typeof value === 'string' && value !== '' ? value : null
}

/** The code exchanged, the id token checked, the person read through the provider's mapping. */
const identityFrom = async (
  ctx: CommandContext,
  provider: ActiveProvider,
  row: SsoProviderRow,
  params: Record<string, string>,
  flow: { codeVerifier: string; nonce: string | null },
) => {
  const client = clientOf(ctx, provider, row.updated_at.toISOString())
  const callbackUrl = new URL(ssoRedirectUri(ctx.config, row.provider_id))
  for (const [key, value] of Object.entries(params)) callbackUrl.searchParams.set(key, value)
  const { tokens, claims } = await client.exchangeCode(callbackUrl, {
    state: params.state ?? '',
    codeVerifier: flow.codeVerifier,
    nonce: flow.nonce,
  })
  const { data } = await client.profile(tokens, claims)
  const mapping = provider.oidcConfig?.mapping ?? {}
  const verified = data[mapping.emailVerified ?? 'email_verified']
  return {
    protocol: 'oidc' as const,
    subject: claim(data, undefined, 'sub') ?? '',
    email: claim(data, mapping.email, 'email') ?? '',
    emailVerified: verified === true || verified === 'true',
    name: claim(data, mapping.name, 'name') ?? '',
    image: claim(data, mapping.image, 'picture'),
    tokens,
  }
}
