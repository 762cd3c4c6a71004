/// Unique-claim values at rest are keyed hashes, not the values: the claims table must not keep a
/// deleted user's email in the clear. Equal values still collide, so uniqueness holds, and the
/// key (AUTH_SECRET) stops anyone with the table from confirming a guessed address offline.

import { hmacSha256, type Secret } from '../../crypto/hmac.js'
import type { UniqueClaim } from '../event-store.js'

/** HMAC-SHA256 (hex) of `scope:value`; the prefix keeps these apart from every other use of the secret. */
export const hashClaimValue = (secret: Secret, scope: string, value: string): string =>
  hmacSha256(secret, `tessera:unique-claim:${scope}:${value}`).toString('hex')

export const hashClaims = (secret: Secret, claims: readonly UniqueClaim[]): UniqueClaim[] =>
  claims.map((claim) => ({ ...claim, value: hashClaimValue(secret, claim.scope, claim.value) }))
