/// The JWT port of the query side (`QueryContext.jwt`): signs tokens for a signed-in user and
/// publishes the public key set. Implemented on the command side (command-api/jwt/jwt-key-set.ts),
/// because a first key, or a rotation that is due, is created through the log.

import type { PublishedKey } from '../../infra/crypto/jwt/key-set.js'

/** The user as get-session shows it; every field becomes a claim, `id` also becomes `sub`. */
export type UserClaims = { id: string } & Record<string, unknown>

export type JwtIssuer = {
  /** A compact JWT: the user's fields, sub, iat, exp = iat + lifetime, iss and aud = BASE_URL. */
  tokenFor(user: UserClaims): Promise<string>
  /** `{ keys }` as `GET /jwks` answers it: public members only, retired keys until their tokens expire. */
  publicKeySet(): Promise<{ keys: PublishedKey[] }>
  /** A compact JWT of exactly `claims`, signed by the current key (OpenID provider's tokens). */
  signClaims(claims: Record<string, unknown>, typ?: string): Promise<string>
}
