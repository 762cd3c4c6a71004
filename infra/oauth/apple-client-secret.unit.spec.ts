import { exportPKCS8, generateKeyPair, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { appleClientAuth, signAppleClientSecret } from './apple-client-secret.js'

describe("Apple's client secret, signed by Tessera", async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const key = { teamId: 'ABCDE12345', keyId: 'KEY1234567', privateKey: await exportPKCS8(privateKey) }

  it('is an ES256 JWT from the team for the client id, to Apple, for five minutes', async () => {
    const now = new Date('2026-11-25T12:00:00Z')
    const secret = await signAppleClientSecret(key, 'com.example.web', now)
    const { payload, protectedHeader } = await jwtVerify(secret, publicKey, {
      issuer: 'ABCDE12345',
      subject: 'com.example.web',
      audience: 'https://appleid.apple.com',
      currentDate: now,
    })
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'KEY1234567' })
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300)
  })

  it('goes in the token request body with the client id, signed anew for each request', async () => {
    const auth = appleClientAuth(key, 'com.example.web')
    const body = new URLSearchParams({ grant_type: 'authorization_code' })
    await auth({ issuer: 'https://appleid.apple.com' }, { client_id: 'com.example.web' }, body, new Headers())
    expect(body.get('client_id')).toBe('com.example.web')
    const { payload } = await jwtVerify(body.get('client_secret') ?? '', publicKey)
    expect(payload.sub).toBe('com.example.web')
  })

  it('refuses a key that is not a PKCS #8 EC key', async () => {
    await expect(signAppleClientSecret({ ...key, privateKey: 'not a key' }, 'x')).rejects.toThrow()
  })
})
