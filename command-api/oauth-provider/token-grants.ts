/// The token endpoint's grants (OAuth 2.1 section 4): the authorization code with its PKCE verifier,
/// the refresh token (rotated on every use), and client credentials for confidential clients. Codes
/// and refresh tokens name their grant, whose stream decides; a replayed code or a spent refresh
/// token revokes the grant (the events say so) and is answered `invalid_grant`.

import { hash } from 'node:crypto'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import {
  type OAuthGrantCommand,
  type OAuthGrantEvent,
  oauthGrantDecider,
  oauthGrantStream,
} from '../../domain/oauth-provider/oauth-grant.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { StoredClient } from '../../http/ports/oauth-client-lookup.js'
import { ALPHANUMERIC, newId, randomToken, sha256Hex } from '../../infra/crypto/tokens.js'
import { grantIdOf } from './authorize.js'
import { accessTokenFor, grantTokens, type TokenAnswer } from './issued-tokens.js'
import type { OAuthContext } from './oauth-context.js'

const newRefreshToken = (grantId: string) => `${grantId}${randomToken(32, ALPHANUMERIC)}`

// One-shot, as sha256Hex: a Hash object made, fed and dropped per call takes three times as long.
const s256 = (verifier: string) => hash('sha256', verifier, 'base64url')

const runGrant = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  grantId: string,
  client: StoredClient,
  command: OAuthGrantCommand,
) => {
  // Decided on the state this process kept after the grant's last command, not read again: the
  // append's expected version proves it current, and a refusal is judged again on the stream.
  const { events, state } = await ctx.handle(oauthGrantDecider, oauthGrantStream(grantId), command, {
    metadata: metadataFor(origin, { type: 'system' }, ctx.clock()),
    decideOnKeptState: true,
  })
  const revoked = events.find(
    (event): event is Extract<OAuthGrantEvent, { type: 'oauth-grant.revoked' }> =>
      event.type === 'oauth-grant.revoked',
  )
  if (revoked)
    throw oauthError(
      'invalid_grant',
      revoked.data.reason === 'code-reused' ? 'invalid code' : 'invalid refresh token',
    )
  if (state.status !== 'active') throw oauthError('invalid_grant', 'invalid grant')
  if (state.terms.clientId !== client.clientId) throw oauthError('invalid_grant', 'invalid grant')
  return { state, events }
}

export const exchangeCode = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  client: StoredClient,
  input: { code: string; redirectUri: string | undefined; codeVerifier: string | undefined },
): Promise<TokenAnswer> => {
  const grantId = grantIdOf(input.code)
  if (!grantId) throw oauthError('invalid_grant', 'invalid code')
  if (!input.codeVerifier) throw oauthError('invalid_request', 'code_verifier is required')
  const now = ctx.clock()
  const accessTokenId = newId()
  const refreshToken = newRefreshToken(grantId)
  const refreshExpiresAt = new Date(
    now.getTime() + ctx.config.oauthProvider.refreshTokenExpiresIn * 1000,
  ).toISOString()
  const { state, events } = await runGrant(ctx, origin, grantId, client, {
    type: 'exchange-code',
    clientId: client.clientId,
    codeHash: sha256Hex(input.code),
    redirectUri: input.redirectUri ?? null,
    verifierChallenge: s256(input.codeVerifier),
    accessTokenId,
    refreshTokenHash: sha256Hex(refreshToken),
    refreshExpiresAt,
    clientMayRefresh: client.settings.grantTypes.includes('refresh_token'),
    now: now.toISOString(),
  })
  const withRefresh = events.some(
    (event) => event.type === 'oauth-grant.code-exchanged' && event.data.refreshTokenHash !== null,
  )
  return grantTokens(ctx, state.terms, accessTokenId, withRefresh ? refreshToken : null)
}

export const refreshTokens = async (
  ctx: OAuthContext,
  origin: RequestOrigin,
  client: StoredClient,
  input: { refreshToken: string; scope: string | undefined },
): Promise<TokenAnswer> => {
  const grantId = grantIdOf(input.refreshToken)
  if (!grantId) throw oauthError('invalid_grant', 'invalid refresh token')
  const now = ctx.clock()
  const accessTokenId = newId()
  const next = newRefreshToken(grantId)
  const { state } = await runGrant(ctx, origin, grantId, client, {
    type: 'refresh',
    clientId: client.clientId,
    refreshTokenHash: sha256Hex(input.refreshToken),
    newRefreshTokenHash: sha256Hex(next),
    refreshExpiresAt: new Date(
      now.getTime() + ctx.config.oauthProvider.refreshTokenExpiresIn * 1000,
    ).toISOString(),
    accessTokenId,
    now: now.toISOString(),
  })
  const requested = input.scope?.split(' ').filter(Boolean)
  if (requested && !requested.every((scope) => state.terms.scopes.includes(scope)))
    throw oauthError('invalid_scope', 'requested scope exceeds the grant')
  const terms = requested ? { ...state.terms, scopes: requested } : state.terms
  return grantTokens(ctx, terms, accessTokenId, next)
}

/** Scopes a machine may hold: none about a person. */
const PERSON_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'organization']

export const clientCredentials = async (
  ctx: OAuthContext,
  client: StoredClient,
  scope: string | undefined,
): Promise<TokenAnswer> => {
  if (
    client.settings.tokenEndpointAuthMethod === 'none' ||
    !client.settings.grantTypes.includes('client_credentials')
  )
    throw oauthError('unauthorized_client', 'client is not authorized to use the client_credentials grant')
  const allowed = (client.settings.scopes ?? ctx.config.oauthProvider.scopes).filter(
    (s) => !PERSON_SCOPES.includes(s),
  )
  const requested = scope ? scope.split(' ').filter(Boolean) : allowed
  const invalid = requested.filter((s) => !allowed.includes(s))
  if (invalid.length > 0)
    throw oauthError('invalid_scope', `The following scopes are invalid: ${invalid.join(', ')}`)
  const access = await accessTokenFor(
    ctx,
    { sub: client.clientId, clientId: client.clientId, scopes: requested, jti: newId() },
    ctx.config.oauthProvider.m2mAccessTokenExpiresIn,
  )
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.exp - access.iat,
    expires_at: access.exp,
    scope: requested.join(' '),
  }
}
