import { createPrivateKey, sign, verify } from 'node:crypto'
import { SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { publishedKeys } from './key-set.js'
import { createJwtSigner } from './signer.js'
import { generateSigningKey, JWT_ALGORITHMS, type JwtAlgorithm, type SigningKey } from './signing-key.js'
import { createJwtVerifier } from './verifier.js'

const ISSUER = 'https://auth.example.com/api/auth'
const T0 = new Date('2030-01-01T00:00:00Z')
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)
const epoch = (seconds: number) => Math.floor(at(seconds).getTime() / 1000)

describe('the JWT verifier', () => {
  const keys = new Map<JwtAlgorithm, SigningKey>()
  beforeAll(async () => {
    for (const alg of JWT_ALGORITHMS) keys.set(alg, await generateSigningKey(alg, { now: T0 }))
  })
  const keyFor = (alg: JwtAlgorithm) => keys.get(alg) as SigningKey
  const published = (...signing: SigningKey[]) => publishedKeys(signing, T0).keys
  const claims = (overrides: Record<string, unknown> = {}) => ({
    iss: ISSUER,
    sub: 'user-1',
    client_id: 'c1',
    iat: epoch(0),
    exp: epoch(60),
    ...overrides,
  })
  const signed = (alg: JwtAlgorithm, payload: Record<string, unknown>, typ?: string) =>
    createJwtSigner([keyFor(alg)], { issuer: ISSUER, audience: ISSUER }).signClaims(payload, at(0), typ)
  const verifier = createJwtVerifier()
  const check = (token: string, signing: SigningKey[], options: { now?: Date; typ?: string } = {}) =>
    verifier.verify(token, published(...signing), {
      issuer: ISSUER,
      now: options.now ?? at(10),
      ...(options.typ ? { typ: options.typ } : {}),
    })

  it.each(JWT_ALGORITHMS)('accepts what the signer made with %s, and what jose signs', async (alg) => {
    const key = keyFor(alg)
    expect(check(await signed(alg, claims(), 'at+jwt'), [key], { typ: 'at+jwt' })).toEqual(claims())
    const byJose = await new SignJWT(claims())
      .setProtectedHeader({ alg, kid: key.kid, typ: 'application/at+jwt' })
      .sign(createPrivateKey({ key: key.privateJwk, format: 'jwk' }))
    expect(check(byJose, [key], { typ: 'at+jwt' })).toEqual(claims())
  })

  it('refuses a changed payload, a foreign key, an unknown kid, and an algorithm the key does not have', async () => {
    const token = await signed('EdDSA', claims())
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const forged = Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url')
    expect(check(`${header}.${forged}.${signature}`, [keyFor('EdDSA')])).toBeNull()
    expect(check(`${header}.${payload}.${signature}x`, [keyFor('EdDSA')])).toBeNull()
    expect(check(`${header}.${payload}.${signature}!`, [keyFor('EdDSA')])).toBeNull()
    // Signed by a key that is not published.
    expect(check(token, [keyFor('ES256')])).toBeNull()
    // The header names the published EdDSA key but claims another algorithm.
    const lying = Buffer.from(JSON.stringify({ alg: 'ES256', kid: keyFor('EdDSA').kid })).toString(
      'base64url',
    )
    const input = Buffer.from(`${lying}.${payload}`)
    const es = sign('sha256', input, {
      key: createPrivateKey({ key: keyFor('ES256').privateJwk, format: 'jwk' }),
      dsaEncoding: 'ieee-p1363',
    })
    expect(
      check(`${lying}.${payload}.${es.toString('base64url')}`, [keyFor('EdDSA'), keyFor('ES256')]),
    ).toBeNull()
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: keyFor('EdDSA').kid })).toString('base64url')
    expect(check(`${none}.${payload}.`, [keyFor('EdDSA')])).toBeNull()
    expect(check('not a token', [keyFor('EdDSA')])).toBeNull()
  })

  it('refuses another issuer, another type, a critical header, and judges exp and nbf at now', async () => {
    const key = keyFor('EdDSA')
    expect(check(await signed('EdDSA', claims({ iss: 'https://evil.example' })), [key])).toBeNull()
    expect(check(await signed('EdDSA', claims(), 'JWT'), [key], { typ: 'at+jwt' })).toBeNull()
    expect(check(await signed('EdDSA', claims()), [key], { typ: 'at+jwt' })).toBeNull()
    const { exp: _exp, ...noExpiry } = claims()
    expect(check(await signed('EdDSA', noExpiry), [key])).toBeNull()
    const token = await signed('EdDSA', claims())
    expect(check(token, [key], { now: at(59) })).not.toBeNull()
    expect(check(token, [key], { now: at(60) })).toBeNull()
    const later = await signed('EdDSA', claims({ nbf: epoch(30) }))
    expect(check(later, [key], { now: at(29) })).toBeNull()
    expect(check(later, [key], { now: at(30) })).not.toBeNull()
    // An extension we do not understand, marked critical (RFC 7515 4.1.11), signed by our own key.
    const part = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url')
    const byHand = (header: object) => {
      const input = `${part(header)}.${part(claims())}`
      const privateKey = createPrivateKey({ key: key.privateJwk, format: 'jwk' })
      return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`
    }
    expect(check(byHand({ alg: 'EdDSA', kid: key.kid }), [key])).toEqual(claims())
    expect(check(byHand({ alg: 'EdDSA', kid: key.kid, crit: ['b64'], b64: false }), [key])).toBeNull()
  })
  it('checks a token it has seen without its signature again, and still judges its key, type, issuer and times', async () => {
    const key = keyFor('EdDSA')
    let checks = 0
    const counting = createJwtVerifier({
      checkSignature: (digest, input, publicKey, signature) => {
        checks += 1
        return verify(digest, input, publicKey, signature)
      },
    })
    const judge = (token: string, signing: SigningKey[], options: { now?: Date; typ?: string } = {}) =>
      counting.verify(token, published(...signing), {
        issuer: ISSUER,
        now: options.now ?? at(10),
        ...(options.typ ? { typ: options.typ } : {}),
      })
    const token = await signed('EdDSA', claims(), 'at+jwt')
    expect(judge(token, [key], { typ: 'at+jwt' })).toEqual(claims())
    expect(judge(token, [key], { typ: 'at+jwt' })).toEqual(claims())
    expect(checks).toBe(1)
    // What can change since is judged each time: the type asked, the time, the key still published.
    expect(judge(token, [key], { typ: 'JWT' })).toBeNull()
    expect(judge(token, [key], { now: at(60) })).toBeNull()
    expect(judge(token, [keyFor('ES256')])).toBeNull()
    const sameKid = { ...(await generateSigningKey('EdDSA', { now: T0 })), kid: key.kid }
    expect(judge(token, [sameKid])).toBeNull()
    expect(counting.verify(token, published(key), { issuer: 'https://evil.example', now: at(10) })).toBeNull()
    expect(checks).toBe(1)
    // A token whose signature failed is not remembered: each try is checked. The signature's
    // first character is changed, as it carries six whole bits; the last carries padding bits,
    // so changing it could leave the bytes as they were.
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const bad = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`
    expect(judge(bad, [key])).toBeNull()
    expect(judge(bad, [key])).toBeNull()
    expect(checks).toBe(3)
  })
})
