/// Checking a token Tessera issued as a provider: its signature against the key set, its issuer,
/// type and expiry; then whether what it came from still stands. A person's token names its grant
/// (`gid`), and the grant's own stream says whether it was revoked: read from the log, not a read
/// model, so a revocation that answered 200 holds on every instance at once, however far behind a
/// projector is. A client's own token (client credentials) stands while the client does.

import { createLocalJWKSet, type JWTPayload, jwtVerify } from 'jose'
import {
  type OAuthGrantEvent,
  oauthGrantDecider,
  oauthGrantStream,
} from '../../domain/oauth-provider/oauth-grant.js'
import { fold } from '../../domain/shared/decider.js'
import { findClient } from '../../projections/oauth-provider/oauth-provider.repository.js'
import { issuerOf, type OAuthContext } from './oauth-context.js'

export type VerifiedAccessToken = JWTPayload & {
  sub: string
  client_id: string
  scope: string
  exp: number
  iat: number
  gid?: string
}

export const grantStateOf = async (ctx: OAuthContext, grantId: string) =>
  fold(
    oauthGrantDecider,
    (await ctx.store.readStream(oauthGrantStream(grantId))) as unknown as OAuthGrantEvent[],
  )

/** The claims of a live access token; null for anything else (forged, expired, revoked, unknown). */
export const verifyAccessToken = async (
  ctx: OAuthContext,
  token: string,
): Promise<VerifiedAccessToken | null> => {
  if (!ctx.jwt) return null
  let payload: JWTPayload
  try {
    const keys = createLocalJWKSet(await ctx.jwt.publicKeySet())
    ;({ payload } = await jwtVerify(token, keys, {
      issuer: issuerOf(ctx.config),
      typ: 'at+jwt',
      currentDate: ctx.clock(),
    }))
  } catch {
    return null
  }
  const claims = payload as VerifiedAccessToken
  if (typeof claims.client_id !== 'string' || typeof claims.sub !== 'string') return null
  if (typeof claims.gid === 'string') {
    const grant = await grantStateOf(ctx, claims.gid)
    return grant.status === 'active' && grant.terms.clientId === claims.client_id ? claims : null
  }
  const client = await findClient(ctx.db, claims.client_id)
  return client && !client.settings.disabled ? claims : null
}
