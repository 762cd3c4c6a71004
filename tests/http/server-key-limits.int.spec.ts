/// A server key's rate limit (`serverApi.rateLimit`) against a real `redis-server`: instances that
/// share one Redis share one count per key, so N instances allow the limit once and not N times;
/// without Redis each instance counts alone; and a Redis outage falls back to counting in memory,
/// never to no limit.

import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type RedisServer, startRedisServer } from '../support/redis-server.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const BILLING_KEY = 'billing-server-key-0123456789abcdefghij'
const REPORTS_KEY = 'reports-server-key-0123456789abcdefghij'
const TOO_MANY = { code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Please try again later.' }
const LIMIT = { window: 60, max: 3 }

const started: TestTessera[] = []
const start = async (env: Record<string, string> = {}) => {
  const tessera = await startTessera({
    env: { SERVER_KEYS: `billing=${BILLING_KEY},reports=${REPORTS_KEY}`, ...env },
    features: { serverApi: { rateLimit: LIMIT } },
  })
  started.push(tessera)
  return tessera
}
const cleanupAll = () => Promise.all(started.splice(0).map((tessera) => tessera.cleanup()))
afterEach(cleanupAll)

/**
 * A call a backend makes with its key: a route guarded by `requireServerKey` (api-key/verify) or,
 * with `via: 'admin'`, one that serves sessions too and awaits `optionalServerKey` (admin).
 */
const call = async (
  tessera: TestTessera,
  { key = BILLING_KEY, via = 'verify' }: { key?: string; via?: 'verify' | 'admin' } = {},
) => {
  const headers = { 'x-tessera-server-key': key }
  const answer =
    via === 'verify'
      ? await tessera.api.request('POST', '/api-key/verify', { key: 'not-a-key' }, headers)
      : await tessera.api.request('GET', '/admin/list-users', undefined, headers)
  return answer
}
const statusesOf = async (calls: (() => ReturnType<typeof call>)[]) => {
  const seen: number[] = []
  for (const next of calls) seen.push((await next()).status)
  return seen
}

describe('server key limits without Redis', () => {
  it('count on each instance alone: two instances allow the limit twice', async () => {
    const first = await start()
    const second = await start()
    const thrice = (tessera: TestTessera) => [1, 2, 3].map(() => () => call(tessera))
    expect(await statusesOf([...thrice(first), ...thrice(second)])).toEqual([200, 200, 200, 200, 200, 200])
    expect((await call(first)).status).toBe(429)
    expect((await call(second, { via: 'admin' })).status).toBe(429)
  })
})

describe('server key limits in Redis (a real redis-server)', () => {
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
    await cleanupAll()
    await client.flushall()
  })

  it('are shared: two instances together refuse the call past the limit, with the spec answer', async () => {
    const first = await start({ REDIS_URL: redis.url })
    const second = await start({ REDIS_URL: redis.url })
    expect(
      await statusesOf([() => call(first), () => call(second), () => call(first, { via: 'admin' })]),
    ).toEqual([200, 200, 200])
    const refused = await call(second)
    expect(refused.status).toBe(429)
    expect(refused.json).toEqual(TOO_MANY)
    expect(Number(refused.headers['x-retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers['x-retry-after'])).toBeLessThanOrEqual(LIMIT.window)
    expect((await call(first, { via: 'admin' })).status).toBe(429)
    // Each key has its own bucket.
    expect((await call(second, { key: REPORTS_KEY })).status).toBe(200)
    const counted = await client.get('tessera:server-key:key|billing')
    expect(Number(counted)).toBe(5)
    const ttl = await client.pttl('tessera:server-key:key|billing')
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(LIMIT.window * 1000)
  })

  it('share the count of wrong keys per address: past it, even the right key is refused everywhere', async () => {
    const first = await start({ REDIS_URL: redis.url })
    const second = await start({ REDIS_URL: redis.url })
    const wrong = `${BILLING_KEY}-wrong`
    const guesses = Array.from({ length: 10 }, (_, i) => () => call(i % 2 ? first : second, { key: wrong }))
    expect(new Set(await statusesOf(guesses))).toEqual(new Set([401]))
    const refused = await call(first)
    expect(refused.status).toBe(429)
    expect(refused.json).toEqual(TOO_MANY)
    expect((await call(second)).status).toBe(429)
    expect(await client.get('tessera:server-key:key|billing')).toBeNull()
  })

  it('still hold, in memory, when Redis dies mid-test, and the instance still closes cleanly', async () => {
    const doomed = await startRedisServer()
    const tessera = await start({ REDIS_URL: doomed.url })
    expect(await statusesOf([() => call(tessera), () => call(tessera)])).toEqual([200, 200])
    await doomed.stop()
    const startedAt = Date.now()
    // The memory fallback counts from its own start: three more calls, then the limit.
    const five = [1, 2, 3, 4, 5].map(() => () => call(tessera))
    expect(await statusesOf(five)).toEqual([200, 200, 200, 429, 429])
    expect(Date.now() - startedAt).toBeLessThan(5000)
    await cleanupAll()
  })

  it('open one connection of their own per instance, closed with it', async () => {
    const connections = async () =>
      String(await client.client('LIST'))
        .trim()
        .split('\n').length
    const before = await connections()
    await start({ REDIS_URL: redis.url })
    expect(await connections()).toBe(before + 1)
    await cleanupAll()
    await expect.poll(connections).toBe(before)
  })

  it('stop the start when REDIS_URL points nowhere, even with RATE_LIMIT off', async () => {
    const nowhere = await startRedisServer()
    const url = nowhere.url
    await nowhere.stop()
    await expect(start({ REDIS_URL: url, RATE_LIMIT: 'off' })).rejects.toThrow(
      /Cannot connect to Redis at REDIS_URL/,
    )
  })
})
