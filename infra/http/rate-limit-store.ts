/// Fixed-window counters for the rate limiter: in memory, in Redis (shared by every instance), and
/// Redis with the memory counters as a fallback. A Redis outage must never mean "no limit": while
/// Redis fails, each instance counts on its own (logged once per outage), which is weaker than a
/// shared count but still bounds guessing and mail-sending.

import type { Redis } from 'ioredis'

/** How many hits the key has in its current window, and how long that window still runs. */
export type Count = { count: number; ttlMs: number }

export type CounterStore = {
  /** Counts one hit on `key`; the first hit of a window opens it for `windowMs`. */
  hit(key: string, windowMs: number): Promise<Count>
  /**
   * Unless `blockedBy.key` already holds `blockedBy.max` hits in a running window (then that
   * window's time left), counts one hit on `key` as `hit` does. One round trip in Redis.
   */
  hitUnlessBlocked(blockedBy: { key: string; max: number }, key: string, windowMs: number): Promise<Gate>
}

export type Gate = { blocked: true; ttlMs: number } | ({ blocked: false } & Count)

/**
 * In-process counters, at most `maxKeys` of them. When full, the oldest window goes first: an
 * attacker who mints fresh keys pushes out windows that are closest to ending anyway.
 */
export const memoryCounters = (maxKeys: number, now: () => number = Date.now): CounterStore => {
  const windows = new Map<string, { count: number; resetAt: number }>()
  const store: CounterStore = {
    async hit(key, windowMs) {
      const at = now()
      const current = windows.get(key)
      if (current && current.resetAt > at) {
        current.count += 1
        return { count: current.count, ttlMs: current.resetAt - at }
      }
      windows.delete(key)
      while (windows.size >= maxKeys) {
        const oldest = windows.keys().next().value
        if (oldest === undefined) break
        windows.delete(oldest)
      }
      windows.set(key, { count: 1, resetAt: at + windowMs })
      return { count: 1, ttlMs: windowMs }
    },
    async hitUnlessBlocked(blockedBy, key, windowMs) {
      const at = now()
      const block = windows.get(blockedBy.key)
      if (block && block.resetAt > at && block.count >= blockedBy.max)
        return { blocked: true, ttlMs: block.resetAt - at }
      return { blocked: false, ...(await store.hit(key, windowMs)) }
    },
  }
  return store
}

// One round trip, atomic: the first hit of a window sets its expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`

// KEYS[1] the blocking window, KEYS[2] the one to count; ARGV[1] its length, ARGV[2] the block's max.
// A blocking key without an expiry (PTTL -1) was not written by these scripts and blocks nothing.
const GATE_SCRIPT = `
local blocking = redis.call('GET', KEYS[1])
if blocking and tonumber(blocking) >= tonumber(ARGV[2]) then
  local left = redis.call('PTTL', KEYS[1])
  if left > 0 then return {1, left} end
end
local count = redis.call('INCR', KEYS[2])
if count == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[2])
if ttl < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {0, count, ttl}`

export const redisCounters = (redis: Redis, namespace: string): CounterStore => ({
  async hit(key, windowMs) {
    const reply = (await redis.eval(HIT_SCRIPT, 1, `${namespace}${key}`, String(windowMs))) as [
      number,
      number,
    ]
    return { count: Number(reply[0]), ttlMs: Number(reply[1]) }
  },
  async hitUnlessBlocked(blockedBy, key, windowMs) {
    const reply = (await redis.eval(
      GATE_SCRIPT,
      2,
      `${namespace}${blockedBy.key}`,
      `${namespace}${key}`,
      String(windowMs),
      String(blockedBy.max),
    )) as number[]
    return Number(reply[0]) === 1
      ? { blocked: true, ttlMs: Number(reply[1]) }
      : { blocked: false, count: Number(reply[1]), ttlMs: Number(reply[2]) }
  },
})

export type FallbackLog = {
  error(obj: object, msg: string): void
  info(obj: object, msg: string): void
}

/** Redis first; while it fails, the memory counters. The switch each way is logged once. */
export const withFallback = (
  primary: CounterStore,
  fallback: CounterStore,
  log: FallbackLog,
): CounterStore => {
  let degraded = false
  const either = async <T>(onPrimary: () => Promise<T>, onFallback: () => Promise<T>): Promise<T> => {
    try {
      const answer = await onPrimary()
      if (degraded) {
        degraded = false
        log.info({}, 'rate limit store (Redis) is back; counting there again')
      }
      return answer
    } catch (error) {
      if (!degraded) {
        degraded = true
        log.error({ err: error }, 'rate limit store (Redis) failed; counting in memory on this instance')
      }
      return onFallback()
    }
  }
  return {
    hit: (key, windowMs) =>
      either(
        () => primary.hit(key, windowMs),
        () => fallback.hit(key, windowMs),
      ),
    hitUnlessBlocked: (blockedBy, key, windowMs) =>
      either(
        () => primary.hitUnlessBlocked(blockedBy, key, windowMs),
        () => fallback.hitUnlessBlocked(blockedBy, key, windowMs),
      ),
  }
}

/**
 * Connects before the app serves, so a wrong REDIS_URL fails at start. Afterwards commands fail
 * fast instead of queueing while Redis is unreachable (see `withFallback`), and ioredis reconnects.
 */
export const connectRedis = async (
  url: string,
  log: { warn(obj: object, msg: string): void },
  purpose: string,
): Promise<Redis> => {
  // Loaded only with a REDIS_URL: a single instance never pays the client's memory (some 9 MB).
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5000,
  })
  redis.on('error', (error: Error) => log.warn({ err: error }, `redis (${purpose}) connection error`))
  try {
    await redis.connect()
  } catch (error) {
    redis.disconnect()
    // The URL may hold a password, so it is not repeated.
    throw new Error(
      `Cannot connect to Redis at REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  return redis
}

// `quit` lets pending replies arrive; with Redis already gone it fails, and `disconnect` is enough.
export const closeRedis = async (redis: Redis): Promise<void> => {
  try {
    await redis.quit()
  } catch {
    redis.disconnect()
  }
}
