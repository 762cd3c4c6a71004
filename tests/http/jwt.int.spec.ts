/// JWTs and the key set over HTTP (issue 9): GET /token, GET /jwks and get-session's `set-auth-jwt`
/// as better-auth's jwt plugin answers them; keys sealed at rest; a first key created once however
/// many first uses race; rotation verified by `jose`'s remote key set against the running server.

import { randomUUID } from 'node:crypto'
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  type JSONWebKeySet,
  jwtVerify,
} from 'jose'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { openTesseraDatabase } from '../../app/database.js'
import { createTessera, type Tessera } from '../../app/server/tessera.js'
import { createJwtKeySet, STALE_KEY_GRACE_SECONDS } from '../../command-api/jwt/jwt-key-set.js'
import { rotateSigningKey } from '../../command-api/jwt/signing-keys.js'
import { SIGNING_KEYS_STREAM } from '../../domain/signing-key/signing-key.js'
import { FieldDecryptionError } from '../../infra/crypto/data-keys.js'
import { openPrivateKey } from '../../infra/crypto/jwt/sealed-key.js'
import { type Browser, browserFor } from '../support/browser.js'
import { databaseKinds, type PostgresDatabase } from '../support/databases.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const PASSWORD = 'correct horse battery'
const LIFETIME = 900
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']
const T0 = new Date('2031-03-01T10:00:00.000Z')
const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/** A clock the test moves; Tessera reads it for sessions, key times and token times. */
const movableClock = () => {
  let now = T0
  return {
    clock: () => now,
    set: (offsetSeconds: number) => {
      now = new Date(T0.getTime() + offsetSeconds * 1000)
    },
    now: () => now,
  }
}

const signUp = async (tessera: TestTessera, email = `${randomUUID()}@example.com`) => {
  const browser = browserFor(tessera)
  const response = await browser.post('/sign-up/email', { name: 'Ada Lovelace', email, password: PASSWORD })
  expect(response.status).toBe(200)
  return browser
}

const tokenOf = async (browser: Browser): Promise<string> => {
  const response = await browser.get('/token')
  expect(response.status).toBe(200)
  return (response.json as { token: string }).token
}

const keySetOf = async (tessera: TestTessera): Promise<JSONWebKeySet> => {
  const response = await tessera.api.request('GET', '/jwks')
  expect(response.status).toBe(200)
  return response.json as JSONWebKeySet
}

const kidsOf = async (tessera: TestTessera) => (await keySetOf(tessera)).keys.map((key) => key.kid)

const cliOrigin = () => ({ requestId: randomUUID(), ip: null, userAgent: 'tessera-cli' })

describe('GET /token, GET /jwks and set-auth-jwt', () => {
  const time = movableClock()
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ clock: time.clock })
  })
  afterAll(() => tessera.cleanup())

  it('answers 401 without a session', async () => {
    const response = await tessera.api.request('GET', '/token')
    expect(response.status).toBe(401)
    expect(response.json).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' })
  })

  it("signs a JWT for the session's user with the claims better-auth puts in it", async () => {
    const browser = await signUp(tessera, 'Ada@Example.com')
    const session = await browser.session()
    const token = await tokenOf(browser)

    const header = decodeProtectedHeader(token)
    expect(header).toEqual({ alg: 'EdDSA', kid: expect.any(String) })
    const iat = seconds(time.now())
    expect(decodeJwt(token)).toEqual({
      ...session?.user,
      sub: session?.user.id,
      iat,
      exp: iat + LIFETIME,
      iss: tessera.ctx.config.baseUrl,
      aud: tessera.ctx.config.baseUrl,
    })
    expect(decodeJwt(token)).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      emailVerified: false,
    })
    expect(await kidsOf(tessera)).toEqual([header.kid])
    const { payload } = await jwtVerify(token, createLocalJWKSet(await keySetOf(tessera)), {
      issuer: tessera.ctx.config.baseUrl,
      audience: tessera.ctx.config.baseUrl,
      currentDate: time.now(),
    })
    expect(payload.sub).toBe(session?.user.id)
  })

  it('publishes public keys only, cacheable for a short while', async () => {
    const response = await tessera.api.request('GET', '/jwks')
    expect(response.headers['cache-control']).toBe('public, max-age=60')
    const { keys } = response.json as JSONWebKeySet
    expect(keys).toHaveLength(1)
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'x'])
      for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member)
    }
  })

  it('sends set-auth-jwt with get-session when there is a session, and not without', async () => {
    const browser = await signUp(tessera)
    const answer = await browser.get('/get-session')
    const jwt = answer.headers['set-auth-jwt']
    expect(typeof jwt).toBe('string')
    expect(answer.headers['access-control-expose-headers']).toBe('set-auth-jwt')
    const { payload } = await jwtVerify(String(jwt), createLocalJWKSet(await keySetOf(tessera)), {
      currentDate: time.now(),
    })
    expect(payload).toMatchObject({ sub: (answer.json as { user: { id: string } }).user.id })

    const anonymous = await tessera.api.request('GET', '/get-session')
    expect(anonymous.json).toBeNull()
    expect(anonymous.headers).not.toHaveProperty('set-auth-jwt')
    expect((await browser.post('/sign-out')).status).toBe(200)
    const signedOut = await browser.get('/get-session')
    expect(signedOut.json).toBeNull()
    expect(signedOut.headers).not.toHaveProperty('set-auth-jwt')
  })

  it('hands out the same token for the same claims for 30 s, a new one when a claim changes or time passes', async () => {
    time.set(0)
    const browser = await signUp(tessera)
    const jwtOf = async () => String((await browser.get('/get-session')).headers['set-auth-jwt'])
    const first = await jwtOf()
    expect(await jwtOf()).toBe(first)
    time.set(31)
    const later = await jwtOf()
    expect(later).not.toBe(first)
    expect(decodeJwt(later).iat).toBe(seconds(time.now()))
    expect((await browser.post('/update-user', { name: 'Ada King' })).status).toBe(200)
    const renamed = await jwtOf()
    expect(renamed).not.toBe(later)
    expect(decodeJwt(renamed).name).toBe('Ada King')
    time.set(0)
  })

  it('keeps private keys sealed in the log and in the read model', async () => {
    const db = tessera.database.db
    const [row] = await db.selectFrom('jwks').selectAll().execute()
    if (!row) throw new Error('no key row')
    expect(row.private_key).toMatch(/^jwk1:/)
    const { d } = openPrivateKey(row.private_key, tessera.ctx.config.secret, row.kid)
    expect(d).toEqual(expect.any(String))
    expect(() => openPrivateKey(row.private_key, 'another-secret-that-is-long-enough-0123', row.kid)).toThrow(
      FieldDecryptionError,
    )
    const rawTable = JSON.stringify(await db.selectFrom('jwks').selectAll().execute())
    const rawLog = JSON.stringify(
      await db
        .selectFrom('tessera_events' as 'jwks')
        .selectAll()
        .execute(),
    )
    expect(rawLog).toContain('signing-key.created')
    for (const raw of [rawTable, rawLog]) expect(raw).not.toContain(String(d))
    expect(JSON.parse(row.public_key)).not.toHaveProperty('d')
  })
})

describe('a first key', () => {
  let tessera: TestTessera
  afterEach(() => tessera.cleanup())

  it('is created once, however many first uses race in one process or in two', async () => {
    tessera = await startTessera()
    const browser = await signUp(tessera)
    // Two instances of the key set on one database, as two API processes would have.
    const other = createJwtKeySet({ ctx: tessera.ctx, refreshIntervalMs: null, logger: console })
    const tokens = await Promise.all([
      ...Array.from({ length: 6 }, () => tokenOf(browser)),
      other.tokenFor({ id: 'someone' }),
      other.publicKeySet().then(() => tokenOf(browser)),
    ])
    other.stop()
    const kids = new Set(tokens.map((token) => decodeProtectedHeader(token).kid))
    expect(kids.size).toBe(1)
    const stream = await tessera.store.readStream(SIGNING_KEYS_STREAM)
    expect(stream.map((event) => event.type)).toEqual(['signing-key.created'])
    expect(stream[0]?.metadata.actor).toEqual({ type: 'system' })
    expect(await kidsOf(tessera)).toEqual([...kids])
  })
})

describe.each(databaseKinds)('rotation, verified by jose against the running server (%s)', (kind) => {
  const time = movableClock()
  let tessera: TestTessera
  beforeAll(async () => {
    tessera = await startTessera({ kind, clock: time.clock, listen: true })
  })
  afterAll(() => tessera.cleanup())

  it('verifies tokens before, across and after a rotation; the retired key leaves once its tokens expired', async () => {
    const issuer = tessera.ctx.config.baseUrl
    // A relying party fetches the set again for an unknown kid; jose waits 30 s between fetches by
    // default, which would only slow this test down.
    const remote = createRemoteJWKSet(new URL(`${tessera.baseUrl}/api/auth/jwks`), { cooldownDuration: 0 })
    const verify = (token: string) =>
      jwtVerify(token, remote, { issuer, audience: issuer, currentDate: time.now() })
    const browser = await signUp(tessera)

    const before = await tokenOf(browser)
    const first = decodeProtectedHeader(before).kid
    await expect(verify(before)).resolves.toBeDefined()

    time.set(60)
    // What `tessera jwks rotate` does; the running server learns of it from its projector.
    const rotated = await rotateSigningKey(tessera.ctx, cliOrigin())
    expect(rotated.retired).toBe(first)
    const across = await tokenOf(browser)
    expect(decodeProtectedHeader(across).kid).toBe(rotated.kid)
    expect(
      decodeProtectedHeader(String((await browser.get('/get-session')).headers['set-auth-jwt'])).kid,
    ).toBe(rotated.kid)
    await expect(verify(before)).resolves.toBeDefined()
    await expect(verify(across)).resolves.toBeDefined()
    expect(await kidsOf(tessera)).toEqual([rotated.kid, first])

    // The last token the first key signed (at the rotation) expires 900 s later.
    time.set(60 + LIFETIME - 1)
    await expect(verify(before)).rejects.toThrow()
    expect(await kidsOf(tessera)).toEqual([rotated.kid, first])
    time.set(60 + LIFETIME + STALE_KEY_GRACE_SECONDS)
    expect(await kidsOf(tessera)).toEqual([rotated.kid])

    const after = await tokenOf(browser)
    expect(decodeProtectedHeader(after).kid).toBe(rotated.kid)
    await expect(verify(after)).resolves.toMatchObject({ payload: { iss: issuer } })
    expect((await tessera.store.readStream(SIGNING_KEYS_STREAM)).map((event) => event.type)).toEqual([
      'signing-key.created',
      'signing-key.retired',
      'signing-key.created',
    ])
  })
})

describe('an API instance that does not project (PostgreSQL)', () => {
  let tessera: TestTessera
  let api: Tessera | undefined
  afterEach(async () => {
    await api?.close()
    await tessera.cleanup()
  })

  it('signs with the successor within seconds of a rotation made elsewhere', async () => {
    tessera = await startTessera({ kind: 'postgres' })
    const { url } = tessera.database as PostgresDatabase
    api = await createTessera({
      config: tessera.ctx.config,
      logger: pino({ level: 'silent' }),
      role: 'api',
      database: await openTesseraDatabase({ kind: 'postgres', url }),
    })
    const apiKeys = api.ctx.jwt
    if (!apiKeys) throw new Error('JWTs are off')
    const first = decodeProtectedHeader(await apiKeys.tokenFor({ id: 'user-1' })).kid
    const { kid } = await rotateSigningKey(tessera.ctx, cliOrigin())
    await vi.waitFor(
      async () => expect(decodeProtectedHeader(await apiKeys.tokenFor({ id: 'user-1' })).kid).toBe(kid),
      { timeout: 10_000, interval: 250 },
    )
    expect((await apiKeys.publicKeySet()).keys.map((key) => key.kid)).toEqual([kid, first])
  })
})

describe('JWT options', () => {
  let tessera: TestTessera
  afterEach(() => tessera.cleanup())

  it('rotates on use once the rotation interval has passed', async () => {
    const time = movableClock()
    tessera = await startTessera({ clock: time.clock, features: { jwt: { rotationIntervalSeconds: 3600 } } })
    const browser = await signUp(tessera)
    const first = decodeProtectedHeader(await tokenOf(browser)).kid
    time.set(3599)
    expect(decodeProtectedHeader(await tokenOf(browser)).kid).toBe(first)
    time.set(3600)
    // The current key signs while its successor is made; then the successor does.
    await vi.waitFor(async () => expect(decodeProtectedHeader(await tokenOf(browser)).kid).not.toBe(first))
    expect(await kidsOf(tessera)).toHaveLength(2)
  })

  it('signs with the configured algorithm and lifetime', async () => {
    tessera = await startTessera({ features: { jwt: { algorithm: 'ES256', lifetimeSeconds: 60 } } })
    const token = await tokenOf(await signUp(tessera))
    expect(decodeProtectedHeader(token).alg).toBe('ES256')
    const { exp = 0, iat = 0 } = decodeJwt(token)
    expect(exp - iat).toBe(60)
    expect((await keySetOf(tessera)).keys[0]).toMatchObject({ alg: 'ES256', kty: 'EC', crv: 'P-256' })
  })

  it('has no /token, /jwks or set-auth-jwt when JWTs are off', async () => {
    tessera = await startTessera({ features: { jwt: { enabled: false } } })
    const browser = await signUp(tessera)
    expect((await browser.get('/token')).status).toBe(404)
    expect((await browser.get('/jwks')).status).toBe(404)
    const answer = await browser.get('/get-session')
    expect(answer.json).not.toBeNull()
    expect(answer.headers).not.toHaveProperty('set-auth-jwt')
  })
})
