/// Private signing keys at rest: envelope-encrypted with the data-key helpers. A fresh data key
/// seals the JWK (AES-256-GCM); the data key is wrapped under the key data-keys.ts derives from the
/// master secret with HKDF. A database dump without AUTH_SECRET yields no private key.

import type { JWK } from 'jose'
import {
  decryptField,
  encryptField,
  FieldDecryptionError,
  generateDataKey,
  unwrapKey,
  wrapKey,
} from '../data-keys.js'
import type { Secret } from '../hmac.js'

const VERSION = 'jwk1'
// Binds both layers to this purpose (and to the caller's context, e.g. the kid), so a sealed
// private key cannot pass for a personal-data key or for another key's row.
const purpose = (context: string) => `tessera/jwks/private-key:${context}`

export const sealPrivateKey = (privateJwk: JWK, secret: Secret, context = ''): string => {
  const dataKey = generateDataKey()
  try {
    const wrapped = wrapKey(secret, dataKey, purpose(context))
    const sealed = encryptField(dataKey, JSON.stringify(privateJwk), purpose(context))
    return `${VERSION}:${wrapped}:${sealed}`
  } finally {
    dataKey.fill(0)
  }
}

/**
 * The private JWK, under the first of `secrets` that opens it (current secret first, then previous
 * ones after a rotation of AUTH_SECRET). Throws `FieldDecryptionError` when none does.
 */
export const openPrivateKey = (sealed: string, secrets: Secret | readonly Secret[], context = ''): JWK => {
  const parts = sealed.split(':')
  const [version, wrapped, payload] = parts
  if (parts.length !== 3 || !wrapped || !payload) throw new FieldDecryptionError('malformed')
  if (version !== VERSION) throw new FieldDecryptionError('unsupported-version')
  const candidates: readonly Secret[] =
    typeof secrets === 'string' || secrets instanceof Uint8Array ? [secrets] : secrets
  let failure = new FieldDecryptionError('authentication-failed')
  for (const secret of candidates) {
    try {
      const dataKey = unwrapKey(secret, wrapped, purpose(context))
      return JSON.parse(decryptField(dataKey, payload, purpose(context))) as JWK
    } catch (error) {
      if (!(error instanceof FieldDecryptionError)) throw error
      failure = error
    }
  }
  throw failure
}
