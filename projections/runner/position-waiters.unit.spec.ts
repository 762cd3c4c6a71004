import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPositionWaiters } from './position-waiters.js'

const at = (tx: number) => ({ tx: BigInt(tx), seq: 0n })

describe('position waiters', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('answers each waiter once the checkpoint reaches its position, and not before', async () => {
    const waiters = createPositionWaiters()
    const early = waiters.wait(at(5), 1_000)
    const late = waiters.wait(at(9), 1_000)
    waiters.reached(at(5))
    await expect(early).resolves.toBe(true)
    expect(waiters.count()).toBe(1)
    waiters.reached(at(10))
    await expect(late).resolves.toBe(true)
    expect(waiters.count()).toBe(0)
  })

  it('answers false when the time is up, and when the group halts', async () => {
    const waiters = createPositionWaiters()
    const timedOut = waiters.wait(at(5), 1_000)
    const halted = waiters.wait(at(5), 60_000)
    vi.advanceTimersByTime(1_000)
    await expect(timedOut).resolves.toBe(false)
    waiters.halted()
    await expect(halted).resolves.toBe(false)
  })

  it('polls while waiting (a follower reads the checkpoint) and stops polling once answered', async () => {
    const waiters = createPositionWaiters()
    const run = vi.fn()
    const waiting = waiters.wait(at(5), 10_000, { everyMs: 5, run })
    vi.advanceTimersByTime(20)
    expect(run).toHaveBeenCalledTimes(4)
    waiters.reached(at(5))
    await waiting
    vi.advanceTimersByTime(100)
    expect(run).toHaveBeenCalledTimes(4)
  })
})
