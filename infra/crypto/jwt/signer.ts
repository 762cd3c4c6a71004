/// Signs JWTs with the newest active key. Signing is on get-session's hot path, so each key is
/// imported once and kept by kid: better-auth decrypts and imports the key on every token, which
/// costs it 12–15% of get-session's CPU.
///
/// Ed25519 and P-256 signatures are made on the event loop, with node:crypto's synchronous `sign`
/// (about 30 µs each on the bench machine). Web Crypto, which jose uses, runs every signature on
/// libuv's thread pool: a get-session then waits for a pool thread as well as for the loop (when the
/// pool's threads also ran password checks at a low priority, its p99 under sign-in load went from
/// 7 ms to 94 ms). RSA signatures cost 0.3 ms and more (they grow with the modulus, which has no
/// upper bound here), too much to block the loop with: they stay on the pool.

import { constants, createPrivateKey, type KeyObject, type SignKeyObjectInput, sign } from 'node:crypto'
import type { JWK } from 'jose'
import { activeKey, DEFAULT_TOKEN_LIFETIME_SECONDS } from './key-set.js'
import type { JwtAlgorithm, SigningKey } from './signing-key.js'

export type KeyImporter = (privateJwk: JWK, alg: JwtAlgorithm) => KeyObject

export type JwtSignerOptions = {
  issuer: string
  audience: string | string[]
  lifetimeSeconds?: number
  /** Injected in tests to count imports; node:crypto's JWK import otherwise. */
  importKey?: KeyImporter
}

export type JwtSigner = {
  /** A compact JWT with `claims` and kid, iat, exp = iat + lifetime, iss, aud, sub; these six win over `claims`. */
  sign(claims: Record<string, unknown>, subject: string, now: Date): Promise<string>
  /** A compact JWT with exactly `claims` (the caller sets iss, aud, exp...), and `typ` in its header. */
  signClaims(claims: Record<string, unknown>, now: Date, typ?: string): Promise<string>
}

export class NoSigningKeyError extends Error {
  override readonly name = 'NoSigningKeyError'
  constructor() {
    super('no active JWT signing key: generate one first')
  }
}

const importPrivateJwk: KeyImporter = (privateJwk) => createPrivateKey({ key: privateJwk, format: 'jwk' })

/** node:crypto's digest and key options for each JWS algorithm (RFC 7518 section 3, RFC 8037). */
const signatureScheme = (
  alg: JwtAlgorithm,
  key: KeyObject,
): { digest: string | null; key: KeyObject | SignKeyObjectInput; inline: boolean } => {
  switch (alg) {
    case 'EdDSA':
      return { digest: null, key, inline: true }
    case 'ES256':
      // JWS wants r ‖ s, not the DER sequence node:crypto makes by default.
      return { digest: 'sha256', key: { key, dsaEncoding: 'ieee-p1363' }, inline: true }
    case 'RS256':
      return { digest: 'sha256', key, inline: false }
    case 'PS256':
      // RFC 7518 section 3.5: the salt is as long as the hash.
      return {
        digest: 'sha256',
        key: { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
        inline: false,
      }
  }
}

const signOnPool = (digest: string | null, data: Buffer, key: KeyObject | SignKeyObjectInput) =>
  new Promise<Buffer>((resolve, reject) =>
    sign(digest, data, key, (error, signature) => (error ? reject(error) : resolve(signature))),
  )

const base64url = (json: unknown): string => Buffer.from(JSON.stringify(json)).toString('base64url')

/** `keys` are opened keys (private JWKs in the clear), or a function that returns the current ones. */
export const createJwtSigner = (
  keys: readonly SigningKey[] | (() => readonly SigningKey[]),
  {
    issuer,
    audience,
    lifetimeSeconds = DEFAULT_TOKEN_LIFETIME_SECONDS,
    importKey = importPrivateJwk,
  }: JwtSignerOptions,
): JwtSigner => {
  const currentKeys = typeof keys === 'function' ? keys : () => keys
  const imported = new Map<string, KeyObject>()

  // A failed import throws and is not kept: the next request tries again.
  const importedKey = (key: SigningKey): KeyObject => {
    const cached = imported.get(key.kid)
    if (cached) return cached
    forgetRemovedKeys(imported, currentKeys())
    const keyObject = importKey(key.privateJwk, key.alg)
    imported.set(key.kid, keyObject)
    return keyObject
  }

  // Every token one key signs with one `typ` has the same header: encoded once, not per token (a
  // code exchange signs two). Bounded by the keys and types in use; emptied should that ever grow.
  const headers = new Map<string, string>()
  const headerOf = (key: SigningKey, typ: string | undefined): string => {
    const id = `${key.alg}\u0000${key.kid}\u0000${typ ?? ''}`
    const known = headers.get(id)
    if (known !== undefined) return known
    if (headers.size >= 64) headers.clear()
    const header = base64url({ alg: key.alg, kid: key.kid, ...(typ ? { typ } : {}) })
    headers.set(id, header)
    return header
  }

  const signWith = async (claims: Record<string, unknown>, now: Date, typ?: string): Promise<string> => {
    const key = activeKey(currentKeys(), now)
    if (!key) throw new NoSigningKeyError()
    const header = headerOf(key, typ)
    const payload = base64url(claims)
    const signingInput = Buffer.from(`${header}.${payload}`)
    const scheme = signatureScheme(key.alg, importedKey(key))
    const signature = scheme.inline
      ? sign(scheme.digest, signingInput, scheme.key)
      : await signOnPool(scheme.digest, signingInput, scheme.key)
    return `${header}.${payload}.${signature.toString('base64url')}`
  }

  return {
    async sign(claims, subject, now) {
      const issuedAt = Math.floor(now.getTime() / 1000)
      return signWith(
        {
          ...claims,
          iat: issuedAt,
          exp: issuedAt + lifetimeSeconds,
          iss: issuer,
          aud: audience,
          sub: subject,
        },
        now,
      )
    },
    signClaims: signWith,
  }
}

const forgetRemovedKeys = (imported: Map<string, unknown>, keys: readonly SigningKey[]): void => {
  const present = new Set(keys.map((key) => key.kid))
  for (const kid of imported.keys()) if (!present.has(kid)) imported.delete(kid)
}
