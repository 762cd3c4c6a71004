/// Verifies the JWTs Tessera signed (signer.ts) against its published key set, on the event loop:
/// the OpenID provider checks an access token on every introspection and userinfo request, and
/// jose's `jwtVerify` runs each signature check through Web Crypto on libuv's thread pool. Here a
/// key is imported once per kid (and dropped when it leaves the set), and node:crypto's synchronous
/// `verify` checks Ed25519 and P-256 in some 50 µs, RSA in less.
///
/// Only what Tessera issues is accepted: a compact JWS of three parts, a header naming a published
/// kid whose algorithm it repeats exactly (no algorithm is taken from the token alone), no `crit`,
/// the expected `typ` when one is asked; then the payload's issuer, and `exp` (required), `nbf` and
/// `iat` as numbers, judged at `now` as jose judges them (expired at `exp`, no tolerance).
///
/// A resource server introspects the same access token on each call it serves, and the signature
/// check was a fifth of an introspection's CPU: a token whose signature held is remembered (by its
/// SHA-256, never the token itself) with its header and payload, and on the next call only what can
/// have changed is judged again: its key still published (the same key under its kid), the `typ`
/// asked, the issuer and the times at `now`.

import {
  constants,
  createPublicKey,
  hash,
  type KeyObject,
  type VerifyKeyObjectInput,
  verify,
} from 'node:crypto'
import type { PublishedKey } from './key-set.js'
import type { JwtAlgorithm } from './signing-key.js'

export type VerifyOptions = { issuer: string; now: Date; typ?: string }

export type JwtVerifier = {
  /** The payload of a token signed by one of `keys` and valid at `now`; null for anything else. */
  verify(token: string, keys: readonly PublishedKey[], options: VerifyOptions): Record<string, unknown> | null
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const decoded = (part: string): unknown => {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}

/** RFC 7515 4.1.9: `application/` may be left out of a media type, which compares case-insensitively. */
const mediaType = (typ: unknown): string | null =>
  typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : null

const scheme = (alg: JwtAlgorithm, key: KeyObject): { digest: string | null; key: VerifyKeyObjectInput } => {
  switch (alg) {
    case 'EdDSA':
      return { digest: null, key: { key } }
    case 'ES256':
      return { digest: 'sha256', key: { key, dsaEncoding: 'ieee-p1363' } }
    case 'RS256':
      return { digest: 'sha256', key: { key } }
    case 'PS256':
      return { digest: 'sha256', key: { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } }
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/
const ALGORITHMS: ReadonlySet<string> = new Set(['EdDSA', 'ES256', 'RS256', 'PS256'])

const validAt = (payload: Record<string, unknown>, options: VerifyOptions): boolean => {
  const now = Math.floor(options.now.getTime() / 1000)
  const { exp, nbf, iat, iss } = payload
  if (iss !== options.issuer) return false
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= now) return false
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return false
  return iat === undefined || typeof iat === 'number'
}

/** Tokens whose signature held, remembered at most; the oldest goes first. */
export const VERIFIED_TOKENS_KEPT = 4096

type Verified = { keyId: string; kid: string; typ: unknown; payload: Record<string, unknown> }

export type JwtVerifierOptions = {
  /** Injected in tests to count signature checks; node:crypto's synchronous `verify` otherwise. */
  checkSignature?: SignatureCheck
}

type SignatureCheck = (
  digest: string | null,
  input: Buffer,
  key: VerifyKeyObjectInput,
  signature: Buffer,
) => boolean

const verifySync: SignatureCheck = (digest, input, key, signature) => verify(digest, input, key, signature)

export const createJwtVerifier = ({ checkSignature = verifySync }: JwtVerifierOptions = {}): JwtVerifier => {
  // By the whole public key, not its kid alone: a different key under a known kid is imported afresh.
  const imported = new Map<string, KeyObject>()
  const verified = new Map<string, Verified>()
  // A key set hands out the same key objects until its keys change (jwt-key-set.ts), and never
  // changes one it handed out: each is written out once, not once per token checked.
  const written = new WeakMap<PublishedKey, string>()
  const idOf = (jwk: PublishedKey): string => {
    const known = written.get(jwk)
    if (known !== undefined) return known
    const id = JSON.stringify(jwk)
    written.set(jwk, id)
    return id
  }

  const keyOf = (jwk: PublishedKey): KeyObject => {
    const id = idOf(jwk)
    const known = imported.get(id)
    if (known) return known
    const key = createPublicKey({ key: jwk, format: 'jwk' })
    if (imported.size >= 32) imported.clear()
    imported.set(id, key)
    return key
  }

  const remember = (tokenHash: string, entry: Verified) => {
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value as string)
    verified.set(tokenHash, entry)
  }

  /** A remembered token judged again on what can change since; undefined when it is not remembered. */
  const again = (tokenHash: string, keys: readonly PublishedKey[], options: VerifyOptions) => {
    const known = verified.get(tokenHash)
    if (!known) return undefined
    if (options.typ !== undefined && mediaType(known.typ) !== mediaType(options.typ)) return null
    const jwk = keys.find((candidate) => candidate.kid === known.kid)
    if (!jwk || idOf(jwk) !== known.keyId) return null
    return validAt(known.payload, options) ? known.payload : null
  }

  return {
    verify(token, keys, options) {
      // One-shot: a third of the time of a Hash object made, fed and dropped per call.
      const tokenHash = hash('sha256', token, 'base64url')
      const remembered = again(tokenHash, keys, options)
      if (remembered !== undefined) return remembered
      const parts = token.split('.')
      if (parts.length !== 3) return null
      const [headerPart = '', payloadPart = '', signaturePart = ''] = parts
      // Node decodes base64url leniently; a signature is only ever written in its strict alphabet.
      if (!BASE64URL.test(signaturePart)) return null
      const header = decoded(headerPart)
      if (!isRecord(header) || header.crit !== undefined || typeof header.alg !== 'string') return null
      if (!ALGORITHMS.has(header.alg) || typeof header.kid !== 'string') return null
      if (options.typ !== undefined && mediaType(header.typ) !== mediaType(options.typ)) return null
      const jwk = keys.find((candidate) => candidate.kid === header.kid)
      if (!jwk || jwk.alg !== header.alg) return null
      let good: boolean
      try {
        const { digest, key } = scheme(jwk.alg as JwtAlgorithm, keyOf(jwk))
        const input = Buffer.from(`${headerPart}.${payloadPart}`)
        good = checkSignature(digest, input, key, Buffer.from(signaturePart, 'base64url'))
      } catch {
        return null
      }
      if (!good) return null
      const payload = decoded(payloadPart)
      if (!isRecord(payload)) return null
      // Shared by every later call with this token: nobody may change it.
      remember(tokenHash, {
        keyId: idOf(jwk),
        kid: header.kid,
        typ: header.typ,
        payload: Object.freeze(payload),
      })
      return validAt(payload, options) ? payload : null
    },
  }
}
