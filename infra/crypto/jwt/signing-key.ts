/// JWT signing keys: generated here, sealed at rest (sealed-key.ts), published as a public key set
/// (key-set.ts) and used by the signer (signer.ts).

import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose'

export const JWT_ALGORITHMS = ['EdDSA', 'ES256', 'RS256', 'PS256'] as const
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number]

export const DEFAULT_JWT_ALGORITHM: JwtAlgorithm = 'EdDSA'
export const MIN_RSA_MODULUS_BITS = 2048

/** What the key set needs to know about a key: never its private half. */
export type PublicSigningKey = {
  kid: string
  alg: JwtAlgorithm
  publicJwk: JWK
  createdAt: Date
  /** When a newer key took over signing; the key stays published until its tokens have expired. */
  retiredAt?: Date | null
}

export type SigningKey = PublicSigningKey & { privateJwk: JWK }

export type GenerateOptions = { now?: Date; modulusLength?: number }

export const isJwtAlgorithm = (value: string): value is JwtAlgorithm =>
  (JWT_ALGORITHMS as readonly string[]).includes(value)

/** A fresh key pair; `kid` is the public key's RFC 7638 thumbprint. */
export const generateSigningKey = async (
  alg: JwtAlgorithm = DEFAULT_JWT_ALGORITHM,
  { now = new Date(), modulusLength = MIN_RSA_MODULUS_BITS }: GenerateOptions = {},
): Promise<SigningKey> => {
  if (!isJwtAlgorithm(alg)) throw new RangeError(`unsupported JWT algorithm ${JSON.stringify(alg)}`)
  const isRsa = alg === 'RS256' || alg === 'PS256'
  if (isRsa && !(Number.isInteger(modulusLength) && modulusLength >= MIN_RSA_MODULUS_BITS))
    throw new RangeError(`an RSA modulus must be at least ${MIN_RSA_MODULUS_BITS} bits`)
  const { publicKey, privateKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}),
    ...(isRsa ? { modulusLength } : {}),
  })
  const publicJwk = publicMembers(await exportJWK(publicKey))
  const privateJwk = await exportJWK(privateKey)
  return { kid: await calculateJwkThumbprint(publicJwk), alg, publicJwk, privateJwk, createdAt: now }
}

// The members RFC 7518/8037 define for each public key type; everything else (d, p, q, dp, dq, qi,
// oth, and any stray member) stays out of a published key whatever was handed in.
const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  OKP: ['kty', 'crv', 'x'],
  EC: ['kty', 'crv', 'x', 'y'],
  RSA: ['kty', 'n', 'e'],
}

/** Only the public members of `jwk`; throws for a key type that has no public form here. */
export const publicMembers = (jwk: JWK): JWK & { kty: string } => {
  const { kty } = jwk
  const members = kty === undefined ? undefined : PUBLIC_MEMBERS[kty]
  if (kty === undefined || !members) throw new RangeError(`unsupported JWK key type ${JSON.stringify(kty)}`)
  const record = jwk as Record<string, unknown>
  const picked = members.filter((name) => record[name] !== undefined).map((name) => [name, record[name]])
  return { ...Object.fromEntries(picked), kty }
}
