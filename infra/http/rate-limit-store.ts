/// Fixed-window counters for the rate limiter: in memory, in Redis (shared by every instance), and
/// Redis with the memory counters as a fallback. A Redis outage must never mean "no limit": while
/// Redis fails, each instance counts on its own (logged once per outage), which is weaker than a
/// shared count but still bounds guessing and mail-sending.

import type { Redis } from 'ioredis'

/** How many hits the key has in its current window, and how long that window still runs. */
export type Count = { count: number; ttlMs: number }

export type CounterStore = { hit(key: string, windowMs: number): Promise<Count> }

/**
 * In-process counters, at most `maxKeys` of them. When full, the oldest window goes first: an
 * attacker who mints fresh keys pushes out windows that are closest to ending anyway.
 */
export const memoryCounters = (maxKeys: number, now: () => number = Date.now): CounterStore => {
  const windows = new Map<string, { count: number; resetAt: number }>()
  return {
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
  }
}

// One round trip, atomic: the first hit of a window sets its expiry.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`

export const redisCounters = (redis: Redis, namespace: string): CounterStore => ({
  async hit(key, windowMs) {
    const reply = (await redis.eval(HIT_SCRIPT, 1, `${namespace}${key}`, String(windowMs))) as [
      number,
      number,
    ]
    return { count: Number(reply[0]), ttlMs: Number(reply[1]) }
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
  return {
    async hit(key, windowMs) {
      try {
        const count = await primary.hit(key, windowMs)
        if (degraded) {
          degraded = false
          log.info({}, 'rate limit store (Redis) is back; counting there again')
        }
        return count
      } catch (error) {
        if (!degraded) {
          degraded = true
          log.error({ err: error }, 'rate limit store (Redis) failed; counting in memory on this instance')
        }
        return fallback.hit(key, windowMs)
      }
    },
  }
}
