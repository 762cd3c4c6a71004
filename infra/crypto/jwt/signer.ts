/// Signs JWTs with the newest active key. Signing is on get-session's hot path, so each key is
/// imported once and kept by kid: better-auth decrypts and imports the key on every token, which
/// costs it 12–15% of get-session's CPU.

import { type CryptoKey, importJWK, type JWK, type KeyObject, SignJWT } from 'jose'
import { activeKey, DEFAULT_TOKEN_LIFETIME_SECONDS } from './key-set.js'
import type { JwtAlgorithm, SigningKey } from './signing-key.js'

export type ImportedKey = CryptoKey | KeyObject | Uint8Array
export type KeyImporter = (privateJwk: JWK, alg: JwtAlgorithm) => Promise<ImportedKey>

export type JwtSignerOptions = {
  issuer: string
  audience: string | string[]
  lifetimeSeconds?: number
  /** Injected in tests to count imports; jose's importJWK otherwise. */
  importKey?: KeyImporter
}

export type JwtSigner = {
  /** A compact JWT with `claims` and kid, iat, exp = iat + lifetime, iss, aud, sub; these six win over `claims`. */
  sign(claims: Record<string, unknown>, subject: string, now: Date): Promise<string>
}

export class NoSigningKeyError extends Error {
  override readonly name = 'NoSigningKeyError'
  constructor() {
    super('no active JWT signing key: generate one first')
  }
}

/** `keys` are opened keys (private JWKs in the clear), or a function that returns the current ones. */
export const createJwtSigner = (
  keys: readonly SigningKey[] | (() => readonly SigningKey[]),
  {
    issuer,
    audience,
    lifetimeSeconds = DEFAULT_TOKEN_LIFETIME_SECONDS,
    importKey = importJWK,
  }: JwtSignerOptions,
): JwtSigner => {
  const currentKeys = typeof keys === 'function' ? keys : () => keys
  // Promises, so concurrent first requests share one import.
  const imported = new Map<string, Promise<ImportedKey>>()

  const importedKey = (key: SigningKey): Promise<ImportedKey> => {
    const cached = imported.get(key.kid)
    if (cached) return cached
    forgetRemovedKeys(imported, currentKeys())
    const pending = importKey(key.privateJwk, key.alg)
    imported.set(key.kid, pending)
    // A failed import is not cached: the next request tries again.
    pending.catch(() => imported.delete(key.kid))
    return pending
  }

  return {
    async sign(claims, subject, now) {
      const key = activeKey(currentKeys(), now)
      if (!key) throw new NoSigningKeyError()
      const issuedAt = Math.floor(now.getTime() / 1000)
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: key.alg, kid: key.kid })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subject)
        .sign(await importedKey(key))
    },
  }
}

const forgetRemovedKeys = (imported: Map<string, unknown>, keys: readonly SigningKey[]): void => {
  const present = new Set(keys.map((key) => key.kid))
  for (const kid of imported.keys()) if (!present.has(kid)) imported.delete(kid)
}
