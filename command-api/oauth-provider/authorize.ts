/// The authorization endpoint's decision (OAuth 2.1 section 4.1.1, OpenID Connect Core 3.1.2):
/// given the request's parameters and the caller's session, where the browser goes next: back to
/// the client with a code or an error, to the login page, or to the consent page (both with the
/// signed request). Codes are issued here as `oauth-grant.code-issued` events.

import { oauthGrantDecider, oauthGrantStream } from '../../domain/oauth-provider/oauth-grant.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { StoredClient } from '../../http/ports/oauth-client-lookup.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { ALPHANUMERIC, newId, randomToken, sha256Hex } from '../../infra/crypto/tokens.js'
import { issuerOf, type OAuthContext } from './oauth-context.js'
import { sessionAmrOf } from './session-amr.js'
import { signQuery } from './signed-query.js'

export type AuthorizeOptions = {
  /** The person just signed in for this request: `prompt=login`, `select_account` and `max_age` are met. */
  justSignedIn?: boolean
  /** The person just agreed on the consent page: `prompt=consent` is met. */
  justConsented?: boolean
}

const CODE_SECRET_LENGTH = 32

/** Where an error goes when the client or its redirect URI cannot be trusted (RFC 6749 4.1.2.1). */
const errorPage = (ctx: OAuthContext, error: string, description: string) =>
  `${issuerOf(ctx.config)}/error?${new URLSearchParams({ error, error_description: description })}`

const back = (ctx: OAuthContext, query: URLSearchParams, answer: Record<string, string>): string => {
  const url = new URL(query.get('redirect_uri') ?? '')
  for (const [key, value] of Object.entries(answer)) url.searchParams.set(key, value)
  const state = query.get('state')
  if (state) url.searchParams.set('state', state)
  url.searchParams.set('iss', issuerOf(ctx.config))
  return url.toString()
}

const backWithError = (ctx: OAuthContext, query: URLSearchParams, error: string, description: string) =>
  back(ctx, query, { error, error_description: description })

const page = (ctx: OAuthContext, path: string, query: URLSearchParams) => {
  const { config } = ctx
  const signed = signQuery(query, config.secret, ctx.clock(), config.oauthProvider.codeExpiresIn)
  return `${new URL(path, config.baseUrl)}?${signed}`
}

const promptsOf = (query: URLSearchParams) => new Set((query.get('prompt') ?? '').split(' ').filter(Boolean))

/** The client and its redirect URI, checked before anything may be sent back to it. */
const trustedClient = async (ctx: OAuthContext, query: URLSearchParams) => {
  const client = await ctx.lookups.oauthClients.findClient(query.get('client_id') ?? '')
  if (!client) return { refusal: errorPage(ctx, 'invalid_client', 'client_id is required') }
  if (client.settings.disabled) return { refusal: errorPage(ctx, 'client_disabled', 'client is disabled') }
  if (!client.settings.grantTypes.includes('authorization_code'))
    return {
      refusal: errorPage(
        ctx,
        'unauthorized_client',
        'client is not authorized to use the authorization_code grant',
      ),
    }
  const redirectUri = query.get('redirect_uri')
  // Exact match (OAuth 2.1 section 2.3.1): no prefix, no pattern.
  if (!redirectUri || !client.settings.redirectUris.includes(redirectUri))
    return { refusal: errorPage(ctx, 'invalid_redirect', 'invalid redirect uri') }
  return { client }
}

/** What the request asks that the client may not have, as its error; null when all is well. */
const requestRefusal = (ctx: OAuthContext, client: StoredClient, query: URLSearchParams): string | null => {
  const allowed = client.settings.scopes ?? ctx.config.oauthProvider.scopes
  const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean)
  const invalid = scopes.filter((scope) => !allowed.includes(scope))
  if (invalid.length > 0)
    return backWithError(
      ctx,
      query,
      'invalid_scope',
      `The following scopes are invalid: ${invalid.join(', ')}`,
    )
  // PKCE with S256 for every client, confidential ones too (OAuth 2.1 section 7.5.1).
  const challenge = query.get('code_challenge')
  const method = query.get('code_challenge_method')
  if (!challenge || !method) return backWithError(ctx, query, 'invalid_request', 'pkce is required')
  if (method !== 'S256')
    return backWithError(
      ctx,
      query,
      'invalid_request',
      'invalid code_challenge method, only S256 is supported',
    )
  if (!/^[A-Za-z0-9_-]{43,128}$/.test(challenge))
    return backWithError(ctx, query, 'invalid_request', 'invalid code_challenge')
  return null
}

/** Whether the person must sign in (again) before this request can go on. */
const needsLogin = (
  ctx: OAuthContext,
  query: URLSearchParams,
  session: FoundSession | null,
  options: AuthorizeOptions,
) => {
  if (!session) return true
  if (options.justSignedIn) return false
  const prompts = promptsOf(query)
  if (prompts.has('login') || prompts.has('select_account')) return true
  const maxAge = query.get('max_age')
  if (maxAge === null || !/^\d+$/.test(maxAge)) return false
  return ctx.clock().getTime() - session.session.created_at.getTime() > Number(maxAge) * 1000
}

export const authorize = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  query: URLSearchParams,
  session: FoundSession | null,
  options: AuthorizeOptions = {},
): Promise<string> => {
  if (query.get('response_type') !== 'code')
    return errorPage(ctx, 'unsupported_response_type', 'unsupported response type')
  const trusted = await trustedClient(ctx, query)
  if (!trusted.client) return trusted.refusal
  const { client } = trusted
  const refusal = requestRefusal(ctx, client, query)
  if (refusal) return refusal
  if (!query.get('scope'))
    query.set('scope', (client.settings.scopes ?? ctx.config.oauthProvider.scopes).join(' '))
  const prompts = promptsOf(query)
  const { loginPage, consentPage } = ctx.config.oauthProvider
  if (needsLogin(ctx, query, session, options) || !session)
    return prompts.has('none')
      ? backWithError(ctx, query, 'login_required', 'authentication required')
      : page(ctx, loginPage, query)
  if (!client.settings.skipConsent && !options.justConsented) {
    const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean)
    const consent = await ctx.lookups.oauthClients.findConsent(session.user.id, client.clientId)
    const agreed = consent?.scopes.split(' ') ?? []
    if (prompts.has('consent') || !scopes.every((scope) => agreed.includes(scope)))
      return prompts.has('none')
        ? backWithError(ctx, query, 'consent_required', 'End-User consent is required')
        : page(ctx, consentPage, query)
  }
  return issueCode(ctx, origin, client, query, session)
}

const issueCode = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  client: StoredClient,
  query: URLSearchParams,
  session: FoundSession,
): Promise<string> => {
  const grantId = newId()
  const code = `${grantId}${randomToken(CODE_SECRET_LENGTH, ALPHANUMERIC)}`
  const now = ctx.clock()
  await ctx.handle(
    oauthGrantDecider,
    oauthGrantStream(grantId),
    {
      type: 'issue-code',
      grantId,
      clientId: client.clientId,
      userId: session.user.id,
      sessionId: session.session.id,
      scopes: (query.get('scope') ?? '').split(' ').filter(Boolean),
      redirectUri: query.get('redirect_uri') ?? '',
      nonce: query.get('nonce'),
      authTime: session.session.created_at.toISOString(),
      amr: await sessionAmrOf(ctx, session.session.id),
      codeHash: sha256Hex(code),
      codeChallenge: query.get('code_challenge') ?? '',
      expiresAt: new Date(now.getTime() + ctx.config.oauthProvider.codeExpiresIn * 1000).toISOString(),
    },
    {
      metadata: metadataFor(origin, { type: 'user', userId: session.user.id }, now),
      newStream: true,
      // Kept, so that the code's exchange decides without reading the stream (token-grants.ts).
      decideOnKeptState: true,
    },
  )
  return back(ctx, query, { code })
}

/** The grant a code or refresh token names: its first characters are the grant's id. */
export const grantIdOf = (token: string): string | null => {
  const id = token.slice(0, 32)
  return token.length === 32 + CODE_SECRET_LENGTH && /^[A-Za-z0-9]+$/.test(token) ? id : null
}
