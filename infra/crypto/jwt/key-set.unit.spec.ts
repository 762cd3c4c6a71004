import { calculateJwkThumbprint } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { activeKey, needsRotation, publishedKeys } from './key-set.js'
import { generateSigningKey, JWT_ALGORITHMS, type SigningKey } from './signing-key.js'

const T0 = new Date('2030-01-01T00:00:00Z')
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']

describe('signing keys', () => {
  const keys: SigningKey[] = []
  beforeAll(async () => {
    for (const alg of JWT_ALGORITHMS) keys.push(await generateSigningKey(alg, { now: T0 }))
  })

  it('generates each algorithm with its curve or modulus, named by thumbprint', async () => {
    expect(keys.map(({ alg, publicJwk }) => [alg, publicJwk.kty, publicJwk.crv])).toEqual([
      ['EdDSA', 'OKP', 'Ed25519'],
      ['ES256', 'EC', 'P-256'],
      ['RS256', 'RSA', undefined],
      ['PS256', 'RSA', undefined],
    ])
    for (const key of keys) {
      expect(key.kid).toBe(await calculateJwkThumbprint(key.publicJwk))
      expect(key.privateJwk.d).toEqual(expect.any(String))
      expect(key.createdAt).toEqual(T0)
    }
    expect(Buffer.from(keys[2]?.publicJwk.n ?? '', 'base64url')).toHaveLength(256)
    expect(new Set(keys.map((key) => key.kid)).size).toBe(4)
  })

  it('refuses an RSA modulus under 2048 bits and an unknown algorithm', async () => {
    await expect(generateSigningKey('RS256', { modulusLength: 1024 })).rejects.toThrow(RangeError)
    await expect(generateSigningKey('PS256', { modulusLength: 2047 })).rejects.toThrow(RangeError)
    await expect(generateSigningKey('HS256' as 'RS256')).rejects.toThrow(RangeError)
  })

  it('publishes public members only, even when handed a private key', () => {
    // The private JWK stands in for the public one: the key set must still strip it.
    const careless = keys.map((key) => ({ ...key, publicJwk: key.privateJwk }))
    const { keys: published } = publishedKeys(careless, at(1))
    expect(published).toHaveLength(4)
    for (const jwk of published) for (const member of PRIVATE_MEMBERS) expect(jwk).not.toHaveProperty(member)
    const [ed] = published
    expect(ed && Object.keys(ed).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'x'])
    expect(JSON.stringify(published)).not.toContain(keys[2]?.privateJwk.d)
  })
})

describe('the key set over time', () => {
  const key = (kid: string, createdAt: number, retiredAt?: number) =>
    ({
      kid,
      alg: 'EdDSA',
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid },
      createdAt: at(createdAt),
      retiredAt: retiredAt === undefined ? null : at(retiredAt),
    }) as const

  it('keeps a retired key exactly until its last token has expired', () => {
    const keys = [key('a', 0, 1000), key('b', 1000)]
    const kids = (now: number, lifetime?: number) =>
      publishedKeys(keys, at(now), lifetime).keys.map((k) => k.kid)
    expect(kids(1000)).toEqual(['b', 'a'])
    expect(kids(1899.999)).toEqual(['b', 'a'])
    expect(kids(1900)).toEqual(['b'])
    expect(kids(1059, 60)).toEqual(['b', 'a'])
    expect(kids(1060, 60)).toEqual(['b'])
  })

  it('signs with the newest key that is not retired', () => {
    expect(activeKey([key('a', 0), key('b', 50), key('c', 100)], at(75))?.kid).toBe('b')
    expect(activeKey([key('a', 0), key('b', 50, 60)], at(75))?.kid).toBe('a')
    expect(activeKey([key('a', 0, 10)], at(75))).toBeUndefined()
  })

  it('asks for a key when none is active, and for a new one when the interval has passed', () => {
    expect(needsRotation([], at(0), null)).toBe(true)
    expect(needsRotation([key('a', 0, 10)], at(20), null)).toBe(true)
    expect(needsRotation([key('a', 0)], at(10 ** 9), null)).toBe(false)
    expect(needsRotation([key('a', 0)], at(86_399), 86_400)).toBe(false)
    expect(needsRotation([key('a', 0)], at(86_400), 86_400)).toBe(true)
    expect(needsRotation([key('a', 0, 100), key('b', 100)], at(86_400), 86_400)).toBe(false)
  })
})
