/// The OAuth 2.0 / OpenID Connect client for social sign-in, around `openid-client`: the protocol
/// (discovery, authorization URL with PKCE S256, code exchange with the provider's client
/// authentication, id-token validation, refresh, user info) is the library's, not ours. This file
/// only says where each provider's endpoints are and how its answers map to a profile.

import { createRemoteJWKSet, jwtVerify } from 'jose'
import type * as client from 'openid-client'
import type { SocialProviderSettings } from '../config/social-providers.js'
import { appleClientAuth } from './apple-client-secret.js'
import {
  BUILT_IN_PROVIDERS,
  oidcProfile,
  type ProviderDefinition,
  type ProviderProfile,
} from './provider-catalogue.js'

export type { ProviderProfile } from './provider-catalogue.js'

/** Tokens as a provider answered them; expiry as ISO text. */
export type ExchangedTokens = {
  accessToken: string | null
  refreshToken: string | null
  idToken: string | null
  accessTokenExpiresAt: string | null
  refreshTokenExpiresAt: string | null
  scope: string | null
  tokenType: string | null
}

export type AuthorizationRequest = {
  redirectUri: string
  state: string
  codeVerifier: string
  nonce: string | null
  scopes: readonly string[]
  loginHint?: string
}

/** Why a callback failed, as better-auth names it in the error redirect. */
export class OAuthFlowError extends Error {
  override readonly name = 'OAuthFlowError'
  constructor(
    readonly code: 'invalid_code' | 'unable_to_get_user_info' | 'invalid_token' | 'id_token_not_supported',
    cause?: unknown,
  ) {
    super(code, { cause })
  }
}

export type SocialProvider = {
  id: string
  name: string
  trusted: boolean
  /** Whether it issues id tokens (an OpenID provider), so `idToken` sign-in and nonces apply. */
  openId: boolean
  /**
   * Whether `iss`, the issuer an authorization response names (RFC 9207), may be this provider's:
   * true when it is, or when the provider has no single issuer to compare with (plain OAuth 2, or
   * Microsoft's multi-tenant endpoints, whose issuer names each tenant).
   */
  acceptsIssuer(iss: string): boolean
  authorizationUrl(request: AuthorizationRequest): Promise<URL>
  /** Exchanges the code of `callbackUrl` (whose query holds the provider's answer). */
  exchangeCode(
    callbackUrl: URL,
    checks: { state: string; codeVerifier: string; nonce: string | null },
  ): Promise<{ tokens: ExchangedTokens; claims: Record<string, unknown> | null }>
  /** The person behind an access token (and the id token's claims, when there is one). */
  profile(
    tokens: Pick<ExchangedTokens, 'accessToken'>,
    idTokenClaims: Record<string, unknown> | null,
  ): Promise<{ profile: ProviderProfile; data: Record<string, unknown> }>
  /** A name the provider sent with the callback rather than in the profile (Apple's first sign-in). */
  callbackName(params: Readonly<Record<string, string>>): string | null
  refresh(refreshToken: string): Promise<ExchangedTokens>
  /** Checks an id token's signature (the provider's keys), issuer, audience, expiry and nonce. */
  verifyIdToken(token: string, nonce: string | undefined): Promise<Record<string, unknown>>
}

export type OAuthClientOptions = {
  /** Lets a provider on plain http (a loopback test provider) be used. */
  allowInsecureRequests?: boolean
  /** How the client authenticates at the token endpoint, where the provider's registration says (SSO). */
  tokenAuth?: 'basic' | 'post'
}

// Loaded on first use: a deployment without social providers never carries the client in memory.
const openidClient = (): Promise<typeof client> => import('openid-client')

export const createSocialProvider = (
  settings: SocialProviderSettings,
  options: OAuthClientOptions = {},
): SocialProvider => {
  const definition = definitionOf(settings)
  const { endpoints } = definition
  const openId = endpoints.kind === 'oidc'
  const insecure = (url: string) => options.allowInsecureRequests === true && url.startsWith('http:')

  // Discovery once, retried on the next use if it failed (the provider may be down at start).
  let configuration: Promise<client.Configuration> | null = null
  const config = (): Promise<client.Configuration> => {
    if (configuration) return configuration
    const made = configure()
    made.catch(() => {
      configuration = null
    })
    configuration = made
    return made
  }
  const configure = async (): Promise<client.Configuration> => {
    const oidc = await openidClient()
    const auth = clientAuthOf(oidc, settings, options.tokenAuth ?? definition.tokenAuth)
    if (endpoints.kind === 'oidc') {
      return oidc.discovery(new URL(endpoints.issuer), settings.clientId, undefined, auth, {
        ...(insecure(endpoints.issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
    }
    const made = new oidc.Configuration(
      {
        issuer: new URL(endpoints.authorizationEndpoint).origin,
        authorization_endpoint: endpoints.authorizationEndpoint,
        token_endpoint: endpoints.tokenEndpoint,
        userinfo_endpoint: endpoints.userInfoEndpoint,
      },
      settings.clientId,
      undefined,
      auth,
    )
    if (insecure(endpoints.tokenEndpoint)) oidc.allowInsecureRequests(made)
    return made
  }

  let keySet: ReturnType<typeof createRemoteJWKSet> | null = null

  return {
    id: settings.id,
    name: settings.name,
    trusted: settings.trusted,
    openId,
    acceptsIssuer: (iss) => {
      if (endpoints.kind !== 'oidc' || endpoints.issuer.includes('{tenantid}')) return true
      if (/\/(common|organizations|consumers)(\/|$)/.test(new URL(endpoints.issuer).pathname)) return true
      const bare = (issuer: string) => issuer.replace(/\/+$/, '')
      return bare(iss) === bare(endpoints.issuer)
    },

    async authorizationUrl(request) {
      const oidc = await openidClient()
      const parameters: Record<string, string> = {
        response_type: 'code',
        redirect_uri: request.redirectUri,
        scope: [...new Set([...definition.scopes, ...settings.scopes, ...request.scopes])].join(' '),
        state: request.state,
        code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
      }
      if (request.nonce !== null) parameters.nonce = request.nonce
      if (definition.responseMode) parameters.response_mode = definition.responseMode
      if (request.loginHint) parameters.login_hint = request.loginHint
      return oidc.buildAuthorizationUrl(await config(), parameters)
    },

    async exchangeCode(callbackUrl, checks) {
      const configured = await config()
      const oidc = await openidClient()
      let response: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
      try {
        response = await oidc.authorizationCodeGrant(configured, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          ...(openId && checks.nonce !== null ? { expectedNonce: checks.nonce } : {}),
          ...(openId ? { idTokenExpected: true } : {}),
        })
      } catch (error) {
        throw new OAuthFlowError('invalid_code', error)
      }
      const claims = response.claims()
      return { tokens: tokensOf(response), claims: claims ? { ...claims } : null }
    },

    async profile(tokens, idTokenClaims) {
      if (!tokens.accessToken) {
        if (!idTokenClaims) throw new OAuthFlowError('unable_to_get_user_info')
        return { profile: definition.profile(idTokenClaims), data: idTokenClaims }
      }
      try {
        const configured = await config()
        const oidc = await openidClient()
        let data: Record<string, unknown>
        if (endpoints.kind === 'oidc') {
          const subject = typeof idTokenClaims?.sub === 'string' ? idTokenClaims.sub : oidc.skipSubjectCheck
          data = {
            ...idTokenClaims,
            ...(await oidc.fetchUserInfo(configured, tokens.accessToken, subject)),
          }
        } else {
          data = await getJson(configured, tokens.accessToken, endpoints.userInfoEndpoint)
          if (endpoints.emailsEndpoint)
            data = {
              ...data,
              ...(await primaryEmail(configured, tokens.accessToken, endpoints.emailsEndpoint, data)),
            }
        }
        const profile = definition.profile(data)
        if (!profile.id) throw new Error('the provider named no subject')
        return { profile, data }
      } catch (error) {
        throw new OAuthFlowError('unable_to_get_user_info', error)
      }
    },

    callbackName: (params) => definition.callbackName?.(params) ?? null,

    async refresh(refreshToken) {
      return tokensOf(await (await openidClient()).refreshTokenGrant(await config(), refreshToken))
    },

    async verifyIdToken(token, nonce) {
      if (!openId) throw new OAuthFlowError('id_token_not_supported')
      const metadata = (await config()).serverMetadata()
      if (!metadata.jwks_uri) throw new OAuthFlowError('id_token_not_supported')
      keySet ??= createRemoteJWKSet(new URL(metadata.jwks_uri))
      try {
        const { payload } = await jwtVerify(token, keySet, { audience: settings.clientId })
        if (payload.iss !== issuerFor(metadata.issuer, payload)) throw new Error('unexpected issuer')
        // A nonce given must match; one the token carries but the caller did not give fails too.
        if ((payload.nonce ?? undefined) !== nonce) throw new Error('nonce mismatch')
        return { ...payload }
      } catch (error) {
        throw new OAuthFlowError('invalid_token', error)
      }
    },
  }
}

/** How the client proves itself at the token endpoint: its secret, or Apple's signed one. */
const clientAuthOf = (
  oidc: typeof client,
  settings: SocialProviderSettings,
  tokenAuth: ProviderDefinition['tokenAuth'],
): client.ClientAuth => {
  if (settings.appleKey) return appleClientAuth(settings.appleKey, settings.clientId)
  const secret = settings.clientSecret
  // The configuration offers no provider without one or the other.
  if (secret === null) throw new Error(`social provider ${settings.id} has no client secret`)
  return tokenAuth === 'basic' ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret)
}

/** The catalogue's definition with the configuration applied: an issuer, a tenant, moved endpoints. */
export const definitionOf = (settings: SocialProviderSettings): ProviderDefinition => {
  const builtIn = BUILT_IN_PROVIDERS[settings.id]
  const issuer =
    settings.issuer ??
    (settings.tenantId !== null ? `https://login.microsoftonline.com/${settings.tenantId}/v2.0` : null)
  // A built-in keeps its scopes, client authentication, mapping and response mode at a moved issuer.
  if (issuer !== null)
    return {
      scopes: ['openid', 'email', 'profile'],
      tokenAuth: 'basic',
      profile: oidcProfile,
      ...builtIn,
      name: settings.name,
      endpoints: { kind: 'oidc', issuer },
    }
  // Without an issuer the id is built in (the configuration refuses anything else).
  const definition = builtIn as ProviderDefinition
  if (definition.endpoints.kind !== 'oauth2') return definition
  return { ...definition, endpoints: { ...definition.endpoints, ...settings.endpoints } }
}

/**
 * The issuer an id token must name. Microsoft's multi-tenant endpoints (common, organizations,
 * consumers) publish `https://login.microsoftonline.com/{tenantid}/v2.0`: each token names its own
 * tenant there, from its `tid` claim (openid-client accepts the same for the code flow).
 */
export const issuerFor = (published: string, claims: Record<string, unknown>): string =>
  published.includes('{tenantid}') && typeof claims.tid === 'string' && /^[0-9a-f-]{36}$/.test(claims.tid)
    ? published.replace('{tenantid}', claims.tid)
    : published

const tokensOf = (response: client.TokenEndpointResponse): ExchangedTokens => {
  const expiresIn = typeof response.expires_in === 'number' ? response.expires_in : null
  const refreshExpiresIn = response.refresh_token_expires_in
  return {
    accessToken: response.access_token ?? null,
    refreshToken: response.refresh_token ?? null,
    idToken: response.id_token ?? null,
    accessTokenExpiresAt: expiresIn === null ? null : new Date(Date.now() + expiresIn * 1000).toISOString(),
    refreshTokenExpiresAt:
      typeof refreshExpiresIn === 'number'
        ? new Date(Date.now() + refreshExpiresIn * 1000).toISOString()
        : null,
    // better-auth keeps scopes comma-separated.
    scope: response.scope ? response.scope.split(' ').filter(Boolean).join(',') : null,
    tokenType: response.token_type ?? null,
  }
}

const getJson = async (
  configured: client.Configuration,
  accessToken: string,
  url: string,
): Promise<Record<string, unknown>> => {
  const response = await (await openidClient()).fetchProtectedResource(
    configured,
    accessToken,
    new URL(url),
    'GET',
    undefined,
    new Headers({ accept: 'application/json', 'user-agent': 'tessera' }),
  )
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return (await response.json()) as Record<string, unknown>
}

/** GitHub: the primary address and whether it is verified (the profile's email may be hidden). */
const primaryEmail = async (
  configured: client.Configuration,
  accessToken: string,
  url: string,
  profile: Record<string, unknown>,
): Promise<{ email?: string; email_verified: boolean }> => {
  const list = (await getJson(configured, accessToken, url)) as unknown
  if (!Array.isArray(list)) return { email_verified: false }
  const emails = list as { email: string; primary?: boolean; verified?: boolean }[]
  const shown = typeof profile.email === 'string' ? profile.email : null
  const chosen = emails.find((e) => shown !== null && e.email === shown) ?? emails.find((e) => e.primary)
  if (!chosen) return { email_verified: false }
  return { email: chosen.email, email_verified: chosen.verified === true }
}
