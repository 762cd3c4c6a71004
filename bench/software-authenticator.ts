/// A software WebAuthn authenticator for the tests and the passkey bench, one for both (here in bench/
/// because the layer rules let tests import bench code, never bench code a test helper): it answers
/// the options Tessera hands out as a browser and a platform authenticator would, with an ES256 key
/// pair made by node:crypto. CBOR is encoded with the encoder @simplewebauthn/server exports (no
/// hand-written CBOR or COSE). Every answer can be bent the ways an attack or a broken client would:
/// another origin, another relying party id, a counter that goes backwards, a signature that does not
/// verify. software-authenticator.unit.spec.ts checks it against @simplewebauthn/server's verifiers.

import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest()

/** Flags of authenticatorData (WebAuthn §6.1): user present, user verified, attested data. */
const UP = 0x01
const UV = 0x04
const AT = 0x40

export type Bend = {
  /** The origin the "browser" writes into clientDataJSON (a phishing page's, say). */
  origin?: string
  /** The relying party id whose hash goes into authenticatorData. */
  rpId?: string
  /** The counter to sign with, instead of the next one. */
  counter?: number
  /** The challenge to sign, instead of the one in the options. */
  challenge?: string
  /** Flip a byte of the signature, so that it does not verify. */
  badSignature?: boolean
}

/** One passkey: its id, its private key, its public key as COSE, and its signature counter. */
export type Credential = { id: Buffer; privateKey: KeyObject; cose: Uint8Array; counter: number }

export type SoftwareAuthenticator = ReturnType<typeof softwareAuthenticator>

export const softwareAuthenticator = (defaults: {
  origin: string
  rpId: string
  countsSignatures?: boolean
}) => {
  const credentials: Credential[] = []
  const counts = defaults.countsSignatures ?? true

  const authenticatorData = (rpId: string, flags: number, counter: number, attested?: Buffer) => {
    const head = Buffer.alloc(37)
    sha256(rpId).copy(head, 0)
    head[32] = flags
    head.writeUInt32BE(counter, 33)
    return attested ? Buffer.concat([head, attested]) : head
  }
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))

  const newCredential = (): Credential => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const jwk = publicKey.export({ format: 'jwk' })
    // COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y.
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

  /**
   * Answers `generate-register-options` as `navigator.credentials.create` would; with `reuse`, it
   * attests a credential it already holds (a key registered again, which real browsers prevent).
   */
  const create = (options: { challenge: string }, bend: Bend = {}, reuse?: Credential) => {
    const credential = reuse ?? newCredential()
    if (!reuse) credentials.push(credential)
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(credential.id.length)
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, Buffer.from(credential.cose)])
    const authData = authenticatorData(bend.rpId ?? defaults.rpId, UP | UV | AT, 0, attested)
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    )
    const clientDataJSON = clientData(
      'webauthn.create',
      bend.challenge ?? options.challenge,
      bend.origin ?? defaults.origin,
    )
    return {
      credential,
      response: {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      },
    }
  }

  /** Answers `generate-authenticate-options` as `navigator.credentials.get` would. */
  const get = (options: { challenge: string }, bend: Bend = {}, credential = credentials.at(-1)) => {
    if (!credential) throw new Error('this authenticator holds no credential yet')
    const counter = bend.counter ?? (counts ? credential.counter + 1 : 0)
    if (bend.counter === undefined) credential.counter = counter
    const authData = authenticatorData(bend.rpId ?? defaults.rpId, UP | UV, counter)
    const clientDataJSON = clientData(
      'webauthn.get',
      bend.challenge ?? options.challenge,
      bend.origin ?? defaults.origin,
    )
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey)
    if (bend.badSignature) signature[signature.length - 1] = (signature.at(-1) ?? 0) ^ 0xff
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: null,
      },
      clientExtensionResults: {},
    }
  }

  /** A copy of a credential, as a cloned authenticator would hold it (its own counter). */
  const cloneOf = (credential: Credential): Credential => ({
    ...credential,
    privateKey: createPrivateKey(credential.privateKey.export({ format: 'pem', type: 'pkcs8' })),
  })

  return { create, get, cloneOf, credentials }
}
