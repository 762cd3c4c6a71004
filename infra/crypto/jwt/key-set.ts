/// The key set's life cycle: the newest active key signs; a retired key stays published until
/// every token it could have signed has expired (retiredAt + token lifetime), then leaves.

import type { JWK } from 'jose'
import { type PublicSigningKey, publicMembers } from './signing-key.js'

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 15 * 60

/** A published key: better-auth's `/jwks` shape, `{ alg, crv?, kty, ...public members, kid }`. */
export type PublishedKey = JWK & { kid: string; alg: string; kty: string }

const isActive = (key: PublicSigningKey, now: Date): boolean =>
  key.createdAt.getTime() <= now.getTime() &&
  (key.retiredAt == null || key.retiredAt.getTime() > now.getTime())

/** The key that signs at `now`: the newest one created by then and not retired; undefined if none. */
export const activeKey = <Key extends PublicSigningKey>(keys: readonly Key[], now: Date): Key | undefined => {
  let newest: Key | undefined
  for (const key of keys)
    if (isActive(key, now) && (newest === undefined || key.createdAt.getTime() > newest.createdAt.getTime()))
      newest = key
  return newest
}

/** `{ keys }` as `GET /jwks` answers it: public members only, retired keys until their tokens expire. */
export const publishedKeys = (
  keys: readonly PublicSigningKey[],
  now: Date,
  tokenLifetimeSeconds: number = DEFAULT_TOKEN_LIFETIME_SECONDS,
): { keys: PublishedKey[] } => {
  const lifetimeMs = tokenLifetimeSeconds * 1000
  // A token signed just before retiredAt expires just before retiredAt + lifetime.
  const stillNeeded = (key: PublicSigningKey) =>
    key.retiredAt == null || now.getTime() < key.retiredAt.getTime() + lifetimeMs
  return {
    keys: keys
      .filter(stillNeeded)
      .toSorted((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((key) => ({ alg: key.alg, ...publicMembers(key.publicJwk), kid: key.kid })),
  }
}

/**
 * Whether a new key should be generated at `now`: when no key is active, or when the active one is
 * `intervalSeconds` old (null: no automatic rotation, only a first key).
 */
export const needsRotation = (
  keys: readonly PublicSigningKey[],
  now: Date,
  intervalSeconds: number | null,
): boolean => {
  const current = activeKey(keys, now)
  if (current === undefined) return true
  if (intervalSeconds === null) return false
  return now.getTime() - current.createdAt.getTime() >= intervalSeconds * 1000
}
