import { execFileSync } from 'node:child_process'
import { createPrivateKey } from 'node:crypto'
import { closeSync, constants, mkdtempSync, open, openSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { publishedKeys } from './key-set.js'
import { createJwtSigner, type KeyImporter, NoSigningKeyError } from './signer.js'
import { generateSigningKey, JWT_ALGORITHMS, type JwtAlgorithm, type SigningKey } from './signing-key.js'

const ISSUER = 'https://auth.example.com'
const T0 = new Date('2030-01-01T00:00:00Z')
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000)
const options = { issuer: ISSUER, audience: ISSUER }

/** Verifies as a relying party would, against the key set published at `now`. */
const verify = (token: string, keys: readonly SigningKey[], now: Date) =>
  jwtVerify(token, createLocalJWKSet(publishedKeys(keys, now)), {
    issuer: ISSUER,
    audience: ISSUER,
    currentDate: now,
  })

const countingImporter = () => {
  const calls: string[] = []
  const importKey: KeyImporter = (jwk, alg) => {
    calls.push(alg)
    return createPrivateKey({ key: jwk, format: 'jwk' })
  }
  return { calls, importKey }
}

describe('the JWT signer', () => {
  const keys = new Map<JwtAlgorithm, SigningKey>()
  beforeAll(async () => {
    for (const alg of JWT_ALGORITHMS) keys.set(alg, await generateSigningKey(alg, { now: T0 }))
  })
  const keyFor = (alg: JwtAlgorithm): SigningKey => {
    const key = keys.get(alg)
    if (!key) throw new Error(`no ${alg} key`)
    return key
  }

  it.each(JWT_ALGORITHMS)('signs with %s, and the published key set verifies it', async (alg) => {
    const key = keyFor(alg)
    const claims = { email: 'ana@example.com', emailVerified: true, sub: 'forged', exp: 1, iss: 'evil' }
    const token = await createJwtSigner([key], options).sign(claims, 'user-1', at(10))

    expect(decodeProtectedHeader(token)).toEqual({ alg, kid: key.kid })
    const { payload } = await verify(token, [key], at(20))
    const iat = Math.floor(at(10).getTime() / 1000)
    expect(payload).toEqual({
      email: 'ana@example.com',
      emailVerified: true,
      sub: 'user-1',
      iat,
      exp: iat + 900,
      iss: ISSUER,
      aud: ISSUER,
    })
  })

  it('lets the token expire after its lifetime', async () => {
    const key = keyFor('EdDSA')
    const token = await createJwtSigner([key], { ...options, lifetimeSeconds: 60 }).sign({}, 'u', at(0))
    await expect(verify(token, [key], at(59))).resolves.toBeDefined()
    await expect(verify(token, [key], at(60))).rejects.toBeInstanceOf(errors.JWTExpired)
  })

  it('imports each key once, however many tokens it signs', async () => {
    const { calls, importKey } = countingImporter()
    const signer = createJwtSigner([keyFor('ES256')], { ...options, importKey })
    await Promise.all([1, 2, 3, 4].map((n) => signer.sign({ n }, 'u', at(n))))
    await signer.sign({}, 'u', at(5))
    expect(calls).toEqual(['ES256'])
  })

  it('imports a new key once after a rotation, and tries a failed import again', async () => {
    let current: SigningKey[] = [keyFor('EdDSA')]
    const { calls, importKey } = countingImporter()
    let failNext = true
    const flaky: KeyImporter = (jwk, alg) => {
      if (failNext && alg === 'PS256') {
        failNext = false
        throw new Error('transient')
      }
      return importKey(jwk, alg)
    }
    const signer = createJwtSigner(() => current, { ...options, importKey: flaky })
    await signer.sign({}, 'u', at(1))
    const successor = { ...keyFor('PS256'), createdAt: at(2) }
    current = [{ ...keyFor('EdDSA'), retiredAt: at(2) }, successor]
    await expect(signer.sign({}, 'u', at(3))).rejects.toThrow('transient')
    const token = await signer.sign({}, 'u', at(3))
    await signer.sign({}, 'u', at(4))
    expect(decodeProtectedHeader(token).kid).toBe(successor.kid)
    expect(calls).toEqual(['EdDSA', 'PS256'])
  })

  it('signs with the newest active key, and refuses when none is active', async () => {
    const older = keyFor('RS256')
    const newer = { ...keyFor('ES256'), createdAt: at(100) }
    const signer = createJwtSigner([newer, older], options)
    expect(decodeProtectedHeader(await signer.sign({}, 'u', at(50))).kid).toBe(older.kid)
    expect(decodeProtectedHeader(await signer.sign({}, 'u', at(150))).kid).toBe(newer.kid)
    const retired = createJwtSigner([{ ...older, retiredAt: at(10) }], options)
    await expect(retired.sign({}, 'u', at(20))).rejects.toBeInstanceOf(NoSigningKeyError)
  })

  it('gives each token the header of its own key and type, however they alternate', async () => {
    const older = keyFor('EdDSA')
    const newer = { ...keyFor('ES256'), createdAt: at(100) }
    const signer = createJwtSigner([older, newer], options)
    const headerOf = async (now: Date, typ?: string) =>
      decodeProtectedHeader(await signer.signClaims({ n: 1 }, now, typ))
    expect(await headerOf(at(1), 'at+jwt')).toEqual({ alg: 'EdDSA', kid: older.kid, typ: 'at+jwt' })
    expect(await headerOf(at(2))).toEqual({ alg: 'EdDSA', kid: older.kid })
    expect(await headerOf(at(150), 'at+jwt')).toEqual({ alg: 'ES256', kid: newer.kid, typ: 'at+jwt' })
    expect(await headerOf(at(151))).toEqual({ alg: 'ES256', kid: newer.kid })
  })

  it("keeps a retired key's tokens verifiable until they expire, then drops the key", async () => {
    const first = keyFor('EdDSA')
    const early = await createJwtSigner([first], options).sign({}, 'u', at(100))
    // Rotation at t=400: the second key signs from then on, the first is retired.
    const second = { ...keyFor('ES256'), createdAt: at(400) }
    const rotated = [{ ...first, retiredAt: at(400) }, second]
    const late = await createJwtSigner(rotated, options).sign({}, 'u', at(500))
    expect(decodeProtectedHeader(late).kid).toBe(second.kid)

    await expect(verify(early, rotated, at(999))).resolves.toBeDefined()
    await expect(verify(late, rotated, at(999))).resolves.toBeDefined()
    // The last token the first key could have signed expires at 400 + 900 = 1300.
    expect(publishedKeys(rotated, at(1299)).keys.map((key) => key.kid)).toEqual([second.kid, first.kid])
    expect(publishedKeys(rotated, at(1300)).keys.map((key) => key.kid)).toEqual([second.kid])
    await expect(verify(early, rotated, at(1300))).rejects.toBeInstanceOf(errors.JWKSNoMatchingKey)
    await expect(verify(late, rotated, at(1300))).resolves.toBeDefined()
  })
})

// libuv reads UV_THREADPOOL_SIZE once, when its pool starts: 4 unless set.
const threadPoolSize = () => Math.max(1, Number.parseInt(process.env.UV_THREADPOOL_SIZE ?? '4', 10) || 1)

/**
 * Occupies every thread of libuv's pool: each is handed an open() of a FIFO that has no writer,
 * which blocks in the kernel until `release` gives it one.
 */
const occupyThreadPool = () => {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-signer-'))
  const fifo = join(directory, 'fifo')
  execFileSync('mkfifo', ['-m', '600', fifo])
  const opens = Array.from(
    { length: threadPoolSize() },
    () =>
      new Promise<number>((resolve, reject) =>
        open(fifo, constants.O_RDONLY, (e, fd) => (e ? reject(e) : resolve(fd))),
      ),
  )
  return async () => {
    const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK)
    for (const fd of await Promise.all(opens)) closeSync(fd)
    closeSync(writer)
    rmSync(directory, { recursive: true, force: true })
  }
}

const settledWithin = <T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> =>
  Promise.race([promise, sleep(ms).then(() => 'pending' as const)])

describe.runIf(process.platform === 'linux')("the JWT signer and libuv's thread pool", () => {
  it('signs with Ed25519 and P-256 keys while every pool thread is busy, and waits for one with RSA', async () => {
    const keys = new Map<JwtAlgorithm, SigningKey>()
    for (const alg of JWT_ALGORITHMS) keys.set(alg, await generateSigningKey(alg, { now: T0 }))
    const signerFor = (alg: JwtAlgorithm) => {
      const key = keys.get(alg)
      if (!key) throw new Error(`no ${alg} key`)
      return { key, signer: createJwtSigner([key], options) }
    }
    // Each key is imported before the pool is taken, so only the signature itself is measured here.
    for (const alg of JWT_ALGORITHMS) await signerFor(alg).signer.sign({}, 'u', at(1))

    const release = occupyThreadPool()
    const inline: [JwtAlgorithm, string][] = []
    let rsa: [JwtAlgorithm, Promise<string>][] = []
    try {
      for (const alg of ['EdDSA', 'ES256'] as const) {
        const token = await settledWithin(signerFor(alg).signer.sign({ n: 1 }, 'u', at(2)), 1_000)
        if (token === 'pending') throw new Error(`${alg} waited for the pool`)
        inline.push([alg, token])
      }
      rsa = (['RS256', 'PS256'] as const).map((alg) => [
        alg,
        signerFor(alg).signer.sign({ n: 1 }, 'u', at(2)),
      ])
      for (const [, token] of rsa) expect(await settledWithin(token, 100)).toBe('pending')
    } finally {
      await release()
    }
    // Verified once the pool is free again: jose verifies on it.
    for (const [alg, token] of [...inline, ...rsa]) {
      await expect(verify(await token, [signerFor(alg).key], at(3))).resolves.toBeDefined()
    }
  })
})
