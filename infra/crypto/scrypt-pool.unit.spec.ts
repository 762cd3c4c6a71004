import { describe, expect, it } from 'vitest'
import { scryptConcurrency, scryptInPool } from './scrypt-pool.js'

describe('how many password checks run at once', () => {
  it.each([
    [2, 4, 2],
    [8, 4, 3],
    [1, 4, 1],
    [4, 1, 1],
    [16, 32, 16],
  ])('with %i cores and a pool of %i threads: %i', (cores, pool, expected) => {
    expect(scryptConcurrency(cores, pool)).toBe(expected)
  })
})

describe('the password-check queue', () => {
  it('refuses parameters scrypt refuses, and keeps serving the checks after them', async () => {
    const bad = { N: 3, r: 1, p: 1, maxmem: 32 * 1024 * 1024 } // N must be a power of two
    const good = { N: 1024, r: 8, p: 1, maxmem: 32 * 1024 * 1024 }
    const refused = Array.from({ length: 2 * scryptConcurrency() }, () => scryptInPool('pw', 'salt', 16, bad))
    for (const attempt of refused) await expect(attempt).rejects.toThrow(/scrypt|N/i)
    const keys = await Promise.all(Array.from({ length: 3 }, () => scryptInPool('pw', 'salt', 16, good)))
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1)
    expect(keys[0]).toHaveLength(16)
  })
})
