/// Rate limiting over HTTP: the spec's 429 answer, the credential rule, buckets per client IP (IPv6
/// per /64) and per canonical path, the default rule, and the Redis store against a real
/// `redis-server` shared by two Tessera instances.

import { createServer } from 'node:net'
import Fastify from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type RedisServer, startRedisServer } from '../../tests/support/redis-server.js'
import { type StartOptions, startTessera, type TestTessera } from '../../tests/support/tessera.js'
import { ConfigError } from '../config/config.js'
import { registerRateLimit } from './rate-limit.js'

const TOO_MANY = { code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Please try again later.' }
const WRONG_PASSWORD = { email: 'nobody@example.com', password: 'not the password' }

type Call = { method?: 'GET' | 'POST'; url: string; ip?: string; body?: object }

const call = async (tessera: TestTessera, { method = 'POST', url, ip = '203.0.113.1', body }: Call) => {
  const app = tessera.app
  if (!app) throw new Error('no HTTP app')
  const response = await app.inject({
    method,
    url,
    remoteAddress: ip,
    ...(body !== undefined ? { payload: body } : method === 'POST' ? { payload: {} } : {}),
  })
  return { status: response.statusCode, json: response.json() as unknown, headers: response.headers }
}

/** A real sign-in attempt: the password is hashed and checked, so it takes a while. */
const signIn = (tessera: TestTessera, ip?: string) =>
  call(tessera, { url: '/api/auth/sign-in/email', body: WRONG_PASSWORD, ...(ip ? { ip } : {}) })

/** A cheap attempt (400: no credentials) that counts all the same, so a test stays well inside 10 s. */
const attempt = (tessera: TestTessera, ip?: string, url = '/api/auth/sign-in/email') =>
  call(tessera, { url, body: {}, ...(ip ? { ip } : {}) })

const statuses = async (count: number, attempt: () => Promise<{ status: number }>) => {
  const seen: number[] = []
  for (let i = 0; i < count; i++) seen.push((await attempt()).status)
  return seen
}

// A port nothing listens on: taken from the OS, then released.
const closedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1))
    })
  })

const started: TestTessera[] = []
const start = async (options: StartOptions = {}) => {
  const tessera = await startTessera({ ...options, env: { RATE_LIMIT: 'on', ...options.env } })
  started.push(tessera)
  return tessera
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((tessera) => tessera.cleanup()))
})

describe('rate limiting, in memory', () => {
  it('answers the 4th sign-in attempt within 10 s with 429, the spec body and X-Retry-After', async () => {
    const tessera = await start()
    expect(await statuses(3, () => signIn(tessera))).toEqual([401, 401, 401])
    const limited = await signIn(tessera)
    expect(limited.status).toBe(429)
    expect(limited.json).toEqual(TOO_MANY)
    const retryAfter = String(limited.headers['x-retry-after'])
    expect(retryAfter).toMatch(/^\d+$/)
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(retryAfter)).toBeLessThanOrEqual(10)
  })

  it('counts every spelling of a path against one bucket, routed or not', async () => {
    const tessera = await start()
    const variants = [
      '/api/auth//sign-in/email',
      '/api/auth/sign-in/email/',
      '/api/auth/SIGN-IN/email',
      '/api/auth/sign-in%2Femail',
      '//api/auth/sign-in/email',
      '/api/auth/sign-in/email',
    ]
    const seen: number[] = []
    for (const url of variants) seen.push((await attempt(tessera, undefined, url)).status)
    // The first three (404s from the router, 400 from the real route) use up the bucket.
    expect(seen.slice(0, 3).every((status) => status !== 429)).toBe(true)
    expect(seen.slice(3)).toEqual([429, 429, 429])
  })

  it('applies the credential rule to every path under /sign-in, /sign-up, /change-password, /change-email', async () => {
    const tessera = await start()
    for (const path of ['/sign-up/email', '/change-password', '/change-email', '/sign-in/social']) {
      const seen = await statuses(4, () => call(tessera, { url: `/api/auth${path}` }))
      expect(seen.slice(0, 3)).not.toContain(429)
      expect(seen[3]).toBe(429)
    }
  })

  it('keeps separate buckets for separate clients and paths', async () => {
    const tessera = await start()
    expect(await statuses(4, () => attempt(tessera, '203.0.113.1'))).toEqual([400, 400, 400, 429])
    expect((await attempt(tessera, '203.0.113.2')).status).toBe(400)
    expect((await call(tessera, { url: '/api/auth/sign-up/email', ip: '203.0.113.1' })).status).toBe(400)
    expect(
      (await call(tessera, { method: 'GET', url: '/api/auth/get-session', ip: '203.0.113.1' })).status,
    ).toBe(200)
  })

  it('shares one bucket across an IPv6 /64 and not beyond it', async () => {
    const tessera = await start()
    const sameNetwork = [
      '2001:db8:1:2::1',
      '2001:db8:1:2::2',
      '2001:db8:1:2:aaaa::9',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
    ]
    const seen: number[] = []
    for (const ip of sameNetwork) seen.push((await attempt(tessera, ip)).status)
    expect(seen).toEqual([400, 400, 400, 429])
    expect((await attempt(tessera, '2001:db8:1:3::1')).status).toBe(400)
  })

  it('uses the configured default elsewhere and lets requests through again after the window', async () => {
    const tessera = await start({ features: { rateLimit: { window: 1, max: 5 } } })
    const getSession = () => call(tessera, { method: 'GET', url: '/api/auth/get-session' })
    expect(await statuses(6, getSession)).toEqual([200, 200, 200, 200, 200, 429])
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect((await getSession()).status).toBe(200)
  })

  it('counts unknown API paths, and leaves paths outside the API alone', async () => {
    const tessera = await start({ features: { rateLimit: { window: 10, max: 2 } } })
    const unknown = () => call(tessera, { method: 'GET', url: '/api/auth/no-such-route' })
    expect(await statuses(3, unknown)).toEqual([404, 404, 429])
    const outside = () => call(tessera, { method: 'GET', url: '/no-such-page' })
    expect(await statuses(4, outside)).toEqual([404, 404, 404, 404])
  })

  it('is off when RATE_LIMIT=off', async () => {
    const tessera = await start({ env: { RATE_LIMIT: 'off' } })
    expect(await statuses(6, () => attempt(tessera))).not.toContain(429)
  })
})

describe('rate limiting in Redis (a real redis-server)', () => {
  let redis: RedisServer
  let client: Redis
  beforeAll(async () => {
    redis = await startRedisServer()
    client = new Redis(redis.url)
  })
  afterAll(async () => {
    await client.quit()
    await redis.stop()
  })
  afterEach(async () => {
    await Promise.all(started.splice(0).map((tessera) => tessera.cleanup()))
    await client.flushall()
  })

  it('keeps the count in Redis, with the spec answer', async () => {
    const tessera = await start({ env: { REDIS_URL: redis.url } })
    expect(await statuses(3, () => signIn(tessera))).toEqual([401, 401, 401])
    const limited = await signIn(tessera)
    expect(limited.status).toBe(429)
    expect(limited.json).toEqual(TOO_MANY)
    expect(Number(limited.headers['x-retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(limited.headers['x-retry-after'])).toBeLessThanOrEqual(10)
    const keys = await client.keys('tessera:rate-limit:*')
    expect(keys).toEqual([expect.stringContaining('203.0.113.1|/sign-in/email')])
    const ttl = await client.pttl(keys[0] ?? '')
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(10_000)
  })

  it('shares the limit between two Tessera instances', async () => {
    const first = await start({ env: { REDIS_URL: redis.url } })
    const second = await start({ env: { REDIS_URL: redis.url } })
    expect((await attempt(first)).status).toBe(400)
    expect((await attempt(second, undefined, '/api/auth/SIGN-IN/email/')).status).toBe(404)
    expect((await attempt(first)).status).toBe(400)
    expect((await attempt(second)).status).toBe(429)
    expect((await attempt(first)).status).toBe(429)
    expect((await attempt(second, '203.0.113.9')).status).toBe(400)
  })

  it('closes its Redis connection when Tessera closes', async () => {
    const connections = async () =>
      String(await client.client('LIST'))
        .trim()
        .split('\n').length
    const before = await connections()
    const tessera = await start({ env: { REDIS_URL: redis.url } })
    expect(await connections()).toBe(before + 1)
    await Promise.all(started.splice(0).map((running) => running.cleanup()))
    await expect.poll(connections).toBe(before)
    expect(tessera.app?.server.listening).toBe(false)
  })

  it('counts in memory, quickly, while Redis is down (never no limit), and still closes cleanly', async () => {
    const doomed = await startRedisServer()
    const tessera = await start({ env: { REDIS_URL: doomed.url } })
    expect((await attempt(tessera)).status).toBe(400)
    await doomed.stop()
    const startedAt = Date.now()
    // The in-memory fallback starts its own count: three more attempts, then the limit.
    expect(await statuses(5, () => attempt(tessera))).toEqual([400, 400, 400, 429, 429])
    expect(Date.now() - startedAt).toBeLessThan(5000)
    await Promise.all(started.splice(0).map((running) => running.cleanup()))
  })

  it('fails at start when REDIS_URL points nowhere', async () => {
    const app = Fastify()
    const config = { basePath: '/api/auth', rateLimit: { enabled: true, window: 10, max: 100 } }
    const nowhere = `redis://127.0.0.1:${await closedPort()}`
    await expect(registerRateLimit(app, { ...config, redisUrl: nowhere })).rejects.toThrow(
      /Cannot connect to Redis at REDIS_URL/,
    )
    await app.close()
  })
})

describe('trusted origins at start-up', () => {
  it('refuses an invalid TRUSTED_ORIGINS entry', async () => {
    await expect(
      start({ env: { TRUSTED_ORIGINS: 'https://ok.example.com,https://bad.example.com/path' } }),
    ).rejects.toThrow(ConfigError)
    await expect(start({ env: { TRUSTED_ORIGINS: 'https://*' } })).rejects.toThrow(/TRUSTED_ORIGINS/)
  })
})
