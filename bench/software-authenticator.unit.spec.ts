import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { describe, expect, it } from 'vitest'
import { softwareAuthenticator } from './software-authenticator.js'

const rp = { rpId: '127.0.0.1', origin: 'http://127.0.0.1:3000' }
const authenticator = softwareAuthenticator(rp)

/** Registers a fresh credential as a relying party would; answers it and its stored public key. */
const registered = async () => {
  const options = await generateRegistrationOptions({
    rpName: 'bench',
    rpID: rp.rpId,
    userName: 'bench@example.com',
    attestationType: 'none',
  })
  const { credential, response } = authenticator.create(options)
  const verification = await verifyRegistrationResponse({
    response: response as unknown as RegistrationResponseJSON,
    expectedChallenge: options.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpId,
    requireUserVerification: false,
  })
  return { credential, verification }
}

const verifyAssertion = async (
  stored: { id: string; publicKey: Uint8Array<ArrayBuffer>; counter: number },
  response: ReturnType<typeof authenticator.get>,
  expectedChallenge: string,
) =>
  verifyAuthenticationResponse({
    response: response as unknown as AuthenticationResponseJSON,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpId,
    credential: stored,
    requireUserVerification: false,
  })

describe('the software authenticator of the tests and the bench', () => {
  it('makes an attestation (fmt none) that @simplewebauthn/server registers, with its key and id', async () => {
    const { credential, verification } = await registered()
    expect(verification.verified).toBe(true)
    expect(verification.registrationInfo?.fmt).toBe('none')
    expect(verification.registrationInfo?.credential.id).toBe(credential.id.toString('base64url'))
    expect(Buffer.from(verification.registrationInfo?.credential.publicKey ?? [])).toEqual(
      Buffer.from(credential.cose),
    )
  })

  it('signs assertions that verify against the registered key, counting up each time', async () => {
    const { credential, verification } = await registered()
    const info = verification.registrationInfo
    if (!info) throw new Error('not registered')
    let stored = { id: info.credential.id, publicKey: info.credential.publicKey, counter: 0 }
    for (const expected of [1, 2]) {
      const options = await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: 'preferred' })
      const result = await verifyAssertion(
        stored,
        authenticator.get(options, {}, credential),
        options.challenge,
      )
      expect(result.verified).toBe(true)
      expect(result.authenticationInfo.newCounter).toBe(expected)
      stored = { ...stored, counter: result.authenticationInfo.newCounter }
    }
  })

  it('signs over the challenge it was given: another challenge does not verify', async () => {
    const { credential, verification } = await registered()
    const info = verification.registrationInfo
    if (!info) throw new Error('not registered')
    const stored = { id: info.credential.id, publicKey: info.credential.publicKey, counter: 0 }
    const options = await generateAuthenticationOptions({ rpID: rp.rpId })
    const other = await generateAuthenticationOptions({ rpID: rp.rpId })
    await expect(
      verifyAssertion(stored, authenticator.get(options, {}, credential), other.challenge),
    ).rejects.toThrow(/challenge/i)
  })

  it('is refused by a key it does not hold', async () => {
    const { verification } = await registered()
    const info = verification.registrationInfo
    if (!info) throw new Error('not registered')
    // Another authenticator's key under the registered credential's id.
    const stranger = softwareAuthenticator(rp).create({ challenge: 'unused' }).credential
    stranger.id = Buffer.from(info.credential.id, 'base64url')
    const stored = { id: info.credential.id, publicKey: info.credential.publicKey, counter: 0 }
    const options = await generateAuthenticationOptions({ rpID: rp.rpId })
    const result = await verifyAssertion(stored, authenticator.get(options, {}, stranger), options.challenge)
    expect(result.verified).toBe(false)
  })
})
