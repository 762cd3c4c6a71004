/// Checking a token Tessera issued as a provider: its signature against the key set, its issuer,
/// type and expiry, in memory and on the event loop (infra/crypto/jwt/verifier.ts); then whether
/// what it came from still stands: one lookup of the revocations written inline with the events
/// that end grants, clients and people (projections/oauth-provider/oauth-revocations.ts), so a
/// revocation that answered 200 holds on every instance at once, however far behind a projector
/// is. A client's own token (client credentials) also needs its client enabled.

import type { JWTPayload } from 'jose'
import {
  type OAuthGrantEvent,
  oauthGrantDecider,
  oauthGrantStream,
} from '../../domain/oauth-provider/oauth-grant.js'
import { fold } from '../../domain/shared/decider.js'
import { createJwtVerifier } from '../../infra/crypto/jwt/verifier.js'
import { issuerOf, type OAuthContext } from './oauth-context.js'
import { clientById, tokenRevoked } from './provider-cache.js'

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

// One per process: it keeps each published key imported (infra/crypto/jwt/verifier.ts).
const verifier = createJwtVerifier()

const signedClaims = async (ctx: OAuthContext, token: string): Promise<VerifiedAccessToken | null> => {
  if (!ctx.jwt) return null
  const { keys } = await ctx.jwt.publicKeySet()
  const payload = verifier.verify(token, keys, {
    issuer: issuerOf(ctx.config),
    typ: 'at+jwt',
    now: ctx.clock(),
  })
  const claims = payload as VerifiedAccessToken | null
  return claims && typeof claims.client_id === 'string' && typeof claims.sub === 'string' ? claims : null
}

/** The claims of a live access token; null for anything else (forged, expired, revoked, unknown). */
export const verifyAccessToken = async (
  ctx: OAuthContext,
  token: string,
): Promise<VerifiedAccessToken | null> => {
  const claims = await signedClaims(ctx, token)
  if (!claims) return null
  const grantId = typeof claims.gid === 'string' ? claims.gid : undefined
  const origins = { clientId: claims.client_id, grantId, userId: grantId ? claims.sub : undefined }
  if (await tokenRevoked(ctx, origins)) return null
  // A KurrentDB log's revocations from before the inline record are in the grants' streams only.
  if (grantId && ctx.config.eventStore.kind === 'kurrentdb') {
    const grant = await grantStateOf(ctx, grantId)
    if (grant.status !== 'active' || grant.terms.clientId !== claims.client_id) return null
  }
  if (grantId) return claims
  const client = await clientById(ctx, claims.client_id)
  return client && !client.settings.disabled ? claims : null
}
