/// A software WebAuthn authenticator for the passkey bench: P-256 keys from node:crypto, a
/// registration attested with fmt "none", and assertions whose authenticatorData, clientDataJSON and
/// signature are built by hand as a platform authenticator and a browser would build them. CBOR goes
/// through the encoder @simplewebauthn/server exports (the same library both servers verify with,
/// so nothing here decodes). Its correctness is checked by factor-figures-authenticator.unit.spec.ts
/// against @simplewebauthn/server's own verifiers.

import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest()

// authenticatorData flags (WebAuthn §6.1): user present, user verified, attested credential data.
const USER_PRESENT = 0x01
const USER_VERIFIED = 0x04
const ATTESTED = 0x40

/** One passkey: its id, its private key, its public key as COSE, and its signature counter. */
export type BenchCredential = { id: Buffer; privateKey: KeyObject; cose: Uint8Array; counter: number }

export type RelyingPartyView = { rpId: string; origin: string }

export const newCredential = (): BenchCredential => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(String(jwk.x), 'base64url'))],
      [-3, new Uint8Array(Buffer.from(String(jwk.y), 'base64url'))],
    ]),
  )
  return { id: randomBytes(32), privateKey, cose, counter: 0 }
}

/** rpIdHash (32) | flags (1) | signCount (4, big-endian) [| attested credential data]. */
const authenticatorData = (rpId: string, flags: number, counter: number, attested?: Buffer): Buffer => {
  const head = Buffer.alloc(37)
  sha256(rpId).copy(head, 0)
  head[32] = flags
  head.writeUInt32BE(counter, 33)
  return attested ? Buffer.concat([head, attested]) : head
}

const clientDataJson = (type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))

/** What `navigator.credentials.create` answers to registration options, as JSON. */
export const attestation = (
  credential: BenchCredential,
  options: { challenge: string },
  rp: RelyingPartyView,
) => {
  const idLength = Buffer.alloc(2)
  idLength.writeUInt16BE(credential.id.length)
  // AAGUID (16 zero bytes: none), credential id length, credential id, public key.
  const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, Buffer.from(credential.cose)])
  const authData = authenticatorData(rp.rpId, USER_PRESENT | USER_VERIFIED | ATTESTED, 0, attested)
  const attestationObject = isoCBOR.encode(
    new Map<string, string | Uint8Array | Map<string, string>>([
      ['fmt', 'none'],
      ['attStmt', new Map<string, string>()],
      ['authData', new Uint8Array(authData)],
    ]),
  )
  return {
    id: b64url(credential.id),
    rawId: b64url(credential.id),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: b64url(clientDataJson('webauthn.create', options.challenge, rp.origin)),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
    clientExtensionResults: {},
  }
}

/**
 * What `navigator.credentials.get` answers to authentication options, as JSON: the counter goes up
 * by one for each assertion, as a security key's does, and the signature is ES256 (DER) over
 * authenticatorData followed by the SHA-256 of clientDataJSON.
 */
export const assertion = (
  credential: BenchCredential,
  options: { challenge: string },
  rp: RelyingPartyView,
) => {
  credential.counter += 1
  const authData = authenticatorData(rp.rpId, USER_PRESENT | USER_VERIFIED, credential.counter)
  const clientData = clientDataJson('webauthn.get', options.challenge, rp.origin)
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey)
  return {
    id: b64url(credential.id),
    rawId: b64url(credential.id),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: b64url(clientData),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: null,
    },
    clientExtensionResults: {},
  }
}
