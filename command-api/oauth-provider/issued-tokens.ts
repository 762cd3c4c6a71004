/// The tokens the token endpoint hands out, signed by Tessera's key set: an access token as a JWT
/// (RFC 9068: `typ: at+jwt`, `client_id`, `scope`, `jti`) and, for `openid`, an ID token (OpenID
/// Connect Core 2) with `auth_time`, `nonce`, `acr`, `at_hash` and, for `organization`, the
/// person's organizations. Claims by scope (OpenID Connect Core 5.4) are shared with userinfo.

import { hash } from 'node:crypto'
import { authenticationClaims } from '../../domain/oauth-provider/authentication-methods.js'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import type { GrantTerms } from '../../domain/oauth-provider/oauth-grant.js'
import type { KnownUser as UserRow } from '../../http/ports/user-lookup.js'
import { issuerOf, type OAuthContext } from './oauth-context.js'
import { userById } from './provider-cache.js'

/** `acr` always; `amr` when the session recorded how it was signed in. */
const authenticationOf = (amr: readonly string[]) => {
  const claims = authenticationClaims(amr)
  return { acr: claims.acr, ...(claims.amr.length > 0 ? { amr: claims.amr } : {}) }
}

export type TokenAnswer = {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  expires_at: number
  scope: string
  refresh_token?: string
  id_token?: string
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

const signer = (ctx: OAuthContext) => {
  if (!ctx.jwt) throw oauthError('invalid_request', 'the provider needs JWT signing keys (jwt.enabled)', 500)
  return ctx.jwt
}

/** The organizations a person is a member of, with their role, for the `organization` scope. */
const organizationsOf = async (ctx: OAuthContext, userId: string) =>
  (
    await ctx.db
      .selectFrom('organization_members')
      .innerJoin('organizations', 'organizations.id', 'organization_members.organization_id')
      .select([
        'organizations.id as id',
        'organizations.slug as slug',
        'organizations.name as name',
        'organization_members.role as role',
      ])
      .where('organization_members.user_id', '=', userId)
      .execute()
  ).map(({ id, slug, name, role }) => ({ id, slug, name, role }))

/** The claims about the person that `scopes` allow (profile, email, organization). */
export const userClaims = async (ctx: OAuthContext, user: UserRow, scopes: readonly string[]) => ({
  sub: user.id,
  ...(scopes.includes('profile')
    ? {
        name: user.name,
        ...(user.image ? { picture: user.image } : {}),
        ...(user.username ? { preferred_username: user.display_username ?? user.username } : {}),
        updated_at: seconds(user.updated_at),
      }
    : {}),
  ...(scopes.includes('email') ? { email: user.email, email_verified: user.email_verified } : {}),
  ...(scopes.includes('organization') ? { organizations: await organizationsOf(ctx, user.id) } : {}),
})

/** OpenID Connect Core 3.1.3.6: the left half of the access token's hash, for the key's algorithm. */
const atHash = (accessToken: string, alg: string): string => {
  // One-shot: a Hash object made, fed and dropped per token takes three times as long.
  const digest = hash(alg === 'EdDSA' ? 'sha512' : 'sha256', accessToken, 'buffer')
  return digest.subarray(0, digest.length / 2).toString('base64url')
}

// Every access token signed by one key has the same header: it is decoded once per key, not per token.
let lastHeader: { encoded: string; alg: string } | null = null

const algOf = (jwt: string): string => {
  const dot = jwt.indexOf('.')
  const encoded = dot < 0 ? jwt : jwt.slice(0, dot)
  if (lastHeader?.encoded === encoded) return lastHeader.alg
  const { alg } = JSON.parse(Buffer.from(encoded, 'base64url').toString()) as { alg: string }
  lastHeader = { encoded, alg }
  return alg
}

export const accessTokenFor = async (
  ctx: OAuthContext,
  subject: { sub: string; clientId: string; scopes: readonly string[]; jti: string; grantId?: string },
  lifetimeSeconds: number,
): Promise<{ token: string; iat: number; exp: number }> => {
  const iat = seconds(ctx.clock())
  const exp = iat + lifetimeSeconds
  const token = await signer(ctx).signClaims(
    {
      iss: issuerOf(ctx.config),
      sub: subject.sub,
      aud: subject.clientId,
      client_id: subject.clientId,
      scope: subject.scopes.join(' '),
      jti: subject.jti,
      ...(subject.grantId ? { gid: subject.grantId } : {}),
      iat,
      exp,
    },
    'at+jwt',
  )
  return { token, iat, exp }
}

/** Every token of a grant's answer: access, refresh (when given) and ID token (for `openid`). */
export const grantTokens = async (
  ctx: OAuthContext,
  terms: GrantTerms,
  accessTokenId: string,
  refreshToken: string | null,
): Promise<TokenAnswer> => {
  const { accessTokenExpiresIn, idTokenExpiresIn } = ctx.config.oauthProvider
  const access = await accessTokenFor(
    ctx,
    {
      sub: terms.userId,
      clientId: terms.clientId,
      scopes: terms.scopes,
      jti: accessTokenId,
      grantId: terms.grantId,
    },
    accessTokenExpiresIn,
  )
  const answer: TokenAnswer = {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.exp - access.iat,
    expires_at: access.exp,
    scope: terms.scopes.join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  }
  if (!terms.scopes.includes('openid')) return answer
  // After the grant's command, so the cache has heard of every earlier change (provider-cache.ts).
  const user = await userById(ctx, terms.userId)
  if (!user) throw oauthError('invalid_grant', 'user not found')
  const idToken = await signer(ctx).signClaims({
    ...(await userClaims(ctx, user, terms.scopes)),
    iss: issuerOf(ctx.config),
    aud: terms.clientId,
    iat: access.iat,
    exp: access.iat + idTokenExpiresIn,
    auth_time: seconds(new Date(terms.authTime)),
    ...authenticationOf(terms.amr),
    ...(terms.nonce ? { nonce: terms.nonce } : {}),
    at_hash: atHash(access.token, algOf(access.token)),
    sid: terms.sessionId,
  })
  return { ...answer, id_token: idToken }
}
