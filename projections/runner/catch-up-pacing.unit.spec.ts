import { describe, expect, it } from 'vitest'
import { START } from '../../infra/event-store/event-store.js'
import {
  type CatchUpPacing,
  catchUpPacer,
  catchUpPacing,
  RATE_WINDOW_MS,
  restShare,
  transactionRate,
} from './catch-up-pacing.js'

const PACING: CatchUpPacing = {
  farBehindEvents: 100,
  idleTransactionsPerSecond: 100,
  busyTransactionsPerSecond: 1_100,
  restPerWork: 9,
}

describe('transactionRate', () => {
  it('knows no rate until its readings span a whole window, then the rate over the window', () => {
    const rate = transactionRate()
    expect(rate.observe({ at: 0, count: 1_000 })).toBeNull()
    expect(rate.observe({ at: RATE_WINDOW_MS - 1, count: 2_000 })).toBeNull()
    expect(rate.observe({ at: RATE_WINDOW_MS, count: 2_500 })).toBe((1_500 * 1000) / RATE_WINDOW_MS)
  })

  it('slides: readings older than a window stop counting, so a load that ends stops showing', () => {
    const rate = transactionRate()
    rate.observe({ at: 0, count: 0 })
    rate.observe({ at: RATE_WINDOW_MS, count: 30_000 })
    // No transaction for a whole window after that: the busy past is out of it.
    expect(rate.observe({ at: 2 * RATE_WINDOW_MS, count: 30_000 })).toBe(0)
  })

  it('starts again from nothing once forgotten', () => {
    const rate = transactionRate()
    rate.observe({ at: 0, count: 0 })
    rate.forget()
    expect(rate.observe({ at: RATE_WINDOW_MS, count: 10 })).toBeNull()
  })
})

describe('restShare', () => {
  it('is none under the idle rate, all from the busy rate, and a straight line between', () => {
    expect(restShare(PACING, 0)).toBe(0)
    expect(restShare(PACING, 100)).toBe(0)
    expect(restShare(PACING, 600)).toBe(0.5)
    expect(restShare(PACING, 1_100)).toBe(1)
    expect(restShare(PACING, 50_000)).toBe(1)
  })

  it('is all while the rate is unknown: a projector that cannot tell makes room', () => {
    expect(restShare(PACING, null)).toBe(1)
  })
})

/**
 * A pacer under a clock that only moves when told, over a database that finishes `perSecond`
 * transactions a second of that clock (null: cannot be read), with `ahead` events left to apply.
 */
const paced = (options: { perSecond: number | null; ahead: number }) => {
  let now = 0
  const rests: number[] = []
  const pacer = catchUpPacer(
    PACING,
    {
      now: () => now,
      sleep: async (ms) => {
        rests.push(ms)
        now += ms
      },
    },
    async () => options.ahead,
    async () => (options.perSecond === null ? null : (now * options.perSecond) / 1000),
  )
  /** Batches of 100 ms each, for `seconds` of this clock; the rests asked for. */
  const batchesFor = async (seconds: number) => {
    rests.length = 0
    const end = now + seconds * 1000
    while (now < end) {
      const startedAt = now
      now += 100
      await pacer.restAfter(startedAt, START)
    }
    return [...rests]
  }
  return { batchesFor }
}

describe('catchUpPacer', () => {
  it('rests restPerWork times each batch while the database is busy', async () => {
    const rests = await paced({ perSecond: 5_000, ahead: 1_000 }).batchesFor(20)
    expect(rests.length).toBeGreaterThan(10)
    expect(new Set(rests)).toEqual(new Set([900]))
  })

  it('stops resting on an idle database once a window has shown it idle', async () => {
    const pacer = paced({ perSecond: 10, ahead: 1_000 })
    // The first window is unknown: it rests as if busy, then no more.
    const first = await pacer.batchesFor(RATE_WINDOW_MS / 1000)
    expect(first.length).toBeGreaterThan(0)
    expect(await pacer.batchesFor(10)).toEqual([])
  })

  it('rests a share of it in between', async () => {
    const pacer = paced({ perSecond: 600, ahead: 1_000 })
    await pacer.batchesFor(RATE_WINDOW_MS / 1000)
    expect(new Set(await pacer.batchesFor(10))).toEqual(new Set([450]))
  })

  it('rests as if busy where the counters cannot be read', async () => {
    expect(new Set(await paced({ perSecond: null, ahead: 1_000 }).batchesFor(10))).toEqual(new Set([900]))
  })

  it('never rests near the head of the log, however busy the database', async () => {
    expect(await paced({ perSecond: 5_000, ahead: PACING.farBehindEvents - 1 }).batchesFor(10)).toEqual([])
  })
})

describe('catchUpPacing', () => {
  it('rests so that the projector keeps the share it is given of its full pace on a busy database', () => {
    // 100 ms of work and 1,900 ms of rest: 5% of the time working.
    expect(catchUpPacing(5).restPerWork).toBe(19)
    expect(catchUpPacing(50).restPerWork).toBe(1)
  })

  it('never rests at 100%', async () => {
    let slept = 0
    const pacer = catchUpPacer(
      catchUpPacing(100),
      {
        now: () => 100,
        sleep: async (ms) => {
          slept += ms
        },
      },
      async () => 1_000_000,
      async () => null,
    )
    await pacer.restAfter(0, START)
    expect(slept).toBe(0)
  })
})
