/// Building blocks for crypto-shredding: personal fields are encrypted with a per-subject data
/// key, and forgetting the subject means destroying that key. Data keys are stored wrapped
/// (encrypted) under a key derived from the master secret, never in the clear.

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import type { Secret } from './hmac.js'
import { randomPool } from './random-pool.js'

const VERSION = 'v1'
const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
const BASE64URL = /^[A-Za-z0-9_-]+$/
// Fixed, application-specific HKDF inputs: the wrapping key changes only with the master secret.
const WRAP_SALT = Buffer.from('tessera/data-key-wrap/salt', 'utf8')
const WRAP_INFO = Buffer.from('tessera/data-key-wrap/v1', 'utf8')
const SECRET_ID_INFO = Buffer.from('tessera/secret-id/v1', 'utf8')

export type FieldDecryptionFailure = 'malformed' | 'unsupported-version' | 'authentication-failed'

export class FieldDecryptionError extends Error {
  override readonly name = 'FieldDecryptionError'
  constructor(readonly reason: FieldDecryptionFailure) {
    super(`cannot decrypt field: ${reason}`)
  }
}

export const generateDataKey = (): Buffer => randomBytes(KEY_BYTES)

/** AES-256-GCM; `aad` binds the ciphertext to its place (e.g. `user:<id>:email`) so it cannot be moved. */
export const encryptField = (key: Uint8Array, plaintext: string, aad: string): string =>
  sealBytes(key, Buffer.from(plaintext, 'utf8'), aad)

/** Throws `FieldDecryptionError` when the payload is malformed, tampered with, or under another key or aad. */
export const decryptField = (key: Uint8Array, payload: string, aad: string): string =>
  openBytes(key, payload, aad).toString('utf8')

/** Encrypts a data key for storage. `context` (e.g. the subject id) binds it to its owner. */
export const wrapKey = (masterSecret: Secret, dataKey: Uint8Array, context = ''): string => {
  assertKey(dataKey)
  return sealBytes(wrappingKey(masterSecret), dataKey, context)
}

export const unwrapKey = (masterSecret: Secret, wrapped: string, context = ''): Buffer => {
  const dataKey = openBytes(wrappingKey(masterSecret), wrapped, context)
  if (dataKey.length !== KEY_BYTES) throw new FieldDecryptionError('malformed')
  return dataKey
}

/**
 * Opens `wrapped` under the first of `secrets` (current first, then the retired ones) that opens
 * it, and says which: a key opened under a retired secret is due for re-wrapping.
 */
export const unwrapUnderAny = (
  secrets: readonly Secret[],
  wrapped: string,
  context = '',
  open: (secret: Secret, wrapped: string, context: string) => Buffer = unwrapKey,
): { key: Buffer; secretIndex: number } => {
  // Made only when every secret fails: an Error's stack costs more than the unwrap it reports on.
  let failure: unknown = null
  for (const [secretIndex, secret] of secrets.entries()) {
    try {
      return { key: open(secret, wrapped, context), secretIndex }
    } catch (error) {
      if (!(error instanceof FieldDecryptionError)) throw error
      failure = error
    }
  }
  throw failure ?? new FieldDecryptionError('authentication-failed')
}

/** Like `wrapKey` for key material of any length (the unique-claim key adopted from an old secret). */
export const wrapBytes = (masterSecret: Secret, bytes: Uint8Array, context: string): string =>
  sealBytes(wrappingKey(masterSecret), bytes, context)

export const unwrapBytes = (masterSecret: Secret, wrapped: string, context: string): Buffer =>
  openBytes(wrappingKey(masterSecret), wrapped, context)

/**
 * A public name for a secret, stored beside what it wrapped: a rotation finds what is still wrapped
 * under a retired secret without trying to open it. One-way (HKDF), so it reveals nothing.
 */
export const secretId = (masterSecret: Secret): string =>
  Buffer.from(hkdfSync('sha256', masterSecret, WRAP_SALT, SECRET_ID_INFO, 9)).toString('base64url')

// Derived once per secret: every data key read from the table (each command's first touch of a
// person) unwraps under it, and the derivation cost as much as the unwrap itself.
// Strings only: bytes could be changed in place after being derived from.
const wrappingKeys = new Map<string, Buffer>()

const derive = (masterSecret: Secret): Buffer =>
  Buffer.from(hkdfSync('sha256', masterSecret, WRAP_SALT, WRAP_INFO, KEY_BYTES))

const wrappingKey = (masterSecret: Secret): Buffer => {
  if (typeof masterSecret !== 'string') return derive(masterSecret)
  const known = wrappingKeys.get(masterSecret)
  if (known) return known
  const derived = derive(masterSecret)
  // A handful of secrets in a process (current and retired ones); tests make many: stay bounded.
  if (wrappingKeys.size >= 16) wrappingKeys.clear()
  wrappingKeys.set(masterSecret, derived)
  return derived
}

// IVs are cut from a pool of random bytes (random-pool.ts): a draw of 12 bytes cost a third of what
// sealing a field does (issue 33: an answer seals some eight).
const ivs = randomPool(IV_BYTES * 512)
const freshIv = (): Buffer => ivs.bytes(IV_BYTES)

const sealBytes = (key: Uint8Array, plaintext: Uint8Array, aad: string): string => {
  assertKey(key)
  // A random 96-bit IV per message; with one key per subject, collisions are not a concern.
  const iv = freshIv()
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(Buffer.from(aad, 'utf8'))
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
  return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`
}

// A replay opens a few personal fields of every event: what is done per field is kept to the cipher.
const openBytes = (key: Uint8Array, payload: string, aad: string): Buffer => {
  assertKey(key)
  const { iv, sealed } = parsePayload(payload)
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES })
  decipher.setAAD(Buffer.from(aad, 'utf8'))
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES))
  try {
    const plaintext = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES))
    // GCM is a stream mode: final() only checks the tag, and returns no bytes.
    decipher.final()
    return plaintext
  } catch {
    throw new FieldDecryptionError('authentication-failed')
  }
}

/** `v1.<iv>.<ciphertext and tag>`, both base64url. */
const parsePayload = (payload: string): { iv: Buffer; sealed: Buffer } => {
  const ivAt = payload.indexOf('.') + 1
  const sealedAt = payload.indexOf('.', ivAt) + 1
  if (ivAt === 0 || sealedAt === 0 || payload.indexOf('.', sealedAt) !== -1)
    throw new FieldDecryptionError('malformed')
  const ivText = payload.slice(ivAt, sealedAt - 1)
  const sealedText = payload.slice(sealedAt)
  if (ivAt === 1 || !ivText || !sealedText) throw new FieldDecryptionError('malformed')
  if (payload.slice(0, ivAt - 1) !== VERSION) throw new FieldDecryptionError('unsupported-version')
  if (!BASE64URL.test(ivText) || !BASE64URL.test(sealedText)) throw new FieldDecryptionError('malformed')
  const iv = Buffer.from(ivText, 'base64url')
  const sealed = Buffer.from(sealedText, 'base64url')
  if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES) throw new FieldDecryptionError('malformed')
  return { iv, sealed }
}

const assertKey = (key: Uint8Array): void => {
  if (key.length !== KEY_BYTES) throw new RangeError(`a data key must be ${KEY_BYTES} bytes`)
}
