import { describe, expect, it } from 'vitest'
import { randomPool } from './random-pool.js'

describe('randomPool', () => {
  it('hands each byte out once, and a slice keeps its bytes after its block is used up', () => {
    const pool = randomPool(32)
    const first = pool.bytes(12)
    const kept = Buffer.from(first)
    const rest = [pool.bytes(12), pool.bytes(12), pool.bytes(12), pool.bytes(12)]
    expect(first.equals(kept)).toBe(true)
    const all = [first, ...rest].map((slice) => slice.toString('hex'))
    expect(new Set(all).size).toBe(all.length)
    for (let i = 0; i < 100; i++) pool.byte()
    expect(first.equals(kept)).toBe(true)
  })

  it('gives a request larger than a block all the bytes it asks for', () => {
    const pool = randomPool(8)
    expect(pool.bytes(20)).toHaveLength(20)
    expect(pool.bytes(3)).toHaveLength(3)
  })

  it('draws bytes of every value, about evenly', () => {
    const pool = randomPool(4096)
    const counts = new Array<number>(256).fill(0)
    for (let i = 0; i < 256_000; i++) {
      const byte = pool.byte()
      counts[byte] = (counts[byte] ?? 0) + 1
    }
    expect(Math.min(...counts)).toBeGreaterThan(800)
    expect(Math.max(...counts)).toBeLessThan(1200)
  })
})
