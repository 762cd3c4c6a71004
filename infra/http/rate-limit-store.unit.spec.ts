import { describe, expect, it } from 'vitest'
import { type CounterStore, memoryCounters, withFallback } from './rate-limit-store.js'

describe('memory counters', () => {
  it('counts within a window and starts again after it', async () => {
    let now = 1_000
    const counters = memoryCounters(10, () => now)
    expect(await counters.hit('k', 10_000)).toEqual({ count: 1, ttlMs: 10_000 })
    now += 4_000
    expect(await counters.hit('k', 10_000)).toEqual({ count: 2, ttlMs: 6_000 })
    now += 6_000
    expect(await counters.hit('k', 10_000)).toEqual({ count: 1, ttlMs: 10_000 })
  })

  it('holds at most its number of keys, pushing out the oldest window', async () => {
    const counters = memoryCounters(2, () => 0)
    await counters.hit('a', 1000)
    await counters.hit('a', 1000)
    await counters.hit('b', 1000)
    await counters.hit('c', 1000)
    expect((await counters.hit('b', 1000)).count).toBe(2)
    expect((await counters.hit('a', 1000)).count).toBe(1)
  })
})

describe('a shared store with the memory fallback', () => {
  const logged = () => {
    const lines: string[] = []
    return {
      lines,
      log: {
        error: (_: object, msg: string) => lines.push(msg),
        info: (_: object, msg: string) => lines.push(msg),
      },
    }
  }

  it('counts in memory while the shared store fails, logs the switch once each way', async () => {
    let down = false
    const shared = memoryCounters(10)
    const failing: CounterStore = {
      hit: (key, windowMs) =>
        down ? Promise.reject(new Error('connection refused')) : shared.hit(key, windowMs),
      hitUnlessBlocked: (blockedBy, key, windowMs) =>
        down
          ? Promise.reject(new Error('connection refused'))
          : shared.hitUnlessBlocked(blockedBy, key, windowMs),
    }
    const { lines, log } = logged()
    const counters = withFallback(failing, memoryCounters(10), log)
    expect((await counters.hit('k', 10_000)).count).toBe(1)
    down = true
    const counts = []
    for (let i = 0; i < 4; i++) counts.push((await counters.hit('k', 10_000)).count)
    // Never "no limit": the fallback counts from its own start.
    expect(counts).toEqual([1, 2, 3, 4])
    expect(lines).toEqual(['rate limit store (Redis) failed; counting in memory on this instance'])
    down = false
    expect((await counters.hit('k', 10_000)).count).toBe(2)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatch(/is back/)
  })
})

describe('counting unless blocked', () => {
  it('counts while the blocking window is below its max, then refuses with its time left', async () => {
    let now = 0
    const counters = memoryCounters(10, () => now)
    const block = { key: 'failures', max: 2 }
    expect(await counters.hitUnlessBlocked(block, 'calls', 5000)).toEqual({
      blocked: false,
      count: 1,
      ttlMs: 5000,
    })
    await counters.hit('failures', 1000)
    await counters.hit('failures', 1000)
    now = 400
    expect(await counters.hitUnlessBlocked(block, 'calls', 5000)).toEqual({ blocked: true, ttlMs: 600 })
    // A refusal counts nothing.
    now = 1000
    expect(await counters.hitUnlessBlocked(block, 'calls', 5000)).toEqual({
      blocked: false,
      count: 2,
      ttlMs: 4000,
    })
  })
})
