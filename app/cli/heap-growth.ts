/// How far V8 lets the heap grow, for a long-running server: the old generation between full
/// collections, and the young generation's size.
///
/// **Old generation.** After each full collection V8 sets the next one's trigger at up to four
/// times what survived it, more the faster the program allocates. A server under load allocates
/// fast, so with ~50 MB live its heap reached ~200 MB of mostly garbage before it was collected
/// (PGlite under get-session load, where requests queue on its one connection long enough for their
/// garbage to be promoted). At 1.2 times live the peak stayed near 400 MB in the same run instead of
/// 553, at no measurable cost in requests per second (bench figures in the issue 8 notes): the old
/// generation is marked concurrently, so collecting it more often costs little of the event loop's
/// time.
///
/// **Young generation.** V8 doubles it whenever enough has survived its collections since it last
/// grew, up to two 16 MB semi-spaces on 64-bit: 32 MB, committed for good. A server reaches that
/// within seconds of load. Capped at 16 MB, it is collected twice as often, each collection taking
/// about as long (a request's objects are dead by then; what survives is the requests in flight).
/// The cap is set at run time because `--max-semi-space-size` is read only when the process starts,
/// and would have to be on every command that starts the server. Loading the modules alone would
/// grow it to 32 MB, in synchronous code that nothing can interrupt to stop it at 16, so main.ts
/// holds it at V8's start-up size (2 MB) until then.

import { PerformanceObserver } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString as setV8Flags } from 'node:v8'
import type { Worker } from 'node:worker_threads'

// V8's flags are the process's, and starting a worker thread sets them back to what the command
// line said: the password workers (scrypt-workers.ts) undid the young generation's cap, which then
// grew to 32 MB, and the heap growth's limit with it. Each flag set here is set again whenever a
// worker comes online.
const flagsSet = new Map<string, string>()
const setFlagsFromString = (flag: string): void => {
  flagsSet.set(flag.split('=')[0] as string, flag)
  setV8Flags(flag)
}
process.on('worker', (worker: Worker) =>
  worker.once('online', () => {
    for (const flag of flagsSet.values()) setV8Flags(flag)
  }),
)

/** The next full collection starts once the heap is this much larger than what survived the last. */
export const HEAP_GROWING_PERCENT = 20

/** The young generation's size (both semi-spaces) past which it stops growing. */
export const YOUNG_GENERATION_CAP_BYTES = 16 * 1024 * 1024

const youngGenerationBytes = (): number =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0

/** V8's own factor: the young generation doubles each time it grows. */
const V8_GROWTH_FACTOR = 2

/** Keeps the young generation at its present size until `capYoungGeneration` lets it grow. */
export const holdYoungGenerationWhileLoading = (): void => {
  setFlagsFromString('--semi-space-growth-factor=1')
}

/**
 * Lets the young generation grow, and stops it once it has reached `capBytes`. V8 grows it only in a
 * collection, by doubling, and reads its growth factor each time: so after the collection that
 * reaches the cap, a factor of 1 keeps it there. The observer sees a collection a few event-loop
 * turns after it; the next doubling needs more than half the present size to survive collections
 * first. At 16 MB that takes far longer than those turns; at 4 MB a loop that keeps many objects
 * alive can do it, and overshoot (the test uses the real cap for this reason). Answers the size it
 * settled at (a promise that resolves once capped).
 */
export const capYoungGeneration = (capBytes = YOUNG_GENERATION_CAP_BYTES): Promise<number> =>
  new Promise((resolve) => {
    const capIfReached = (): boolean => {
      const size = youngGenerationBytes()
      if (size < capBytes) return false
      setFlagsFromString('--semi-space-growth-factor=1')
      resolve(size)
      return true
    }
    if (capIfReached()) return
    setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`)
    const observer = new PerformanceObserver(() => {
      if (capIfReached()) observer.disconnect()
    })
    observer.observe({ entryTypes: ['gc'] })
  })

/**
 * The old generation's growth alone, for `replay`: its young generation is set by the thread it runs
 * in (replay-in-worker.ts), larger than a server's. A replay of a million events allocates as fast
 * as a loaded server and kept ~190 MB of heap, mostly garbage.
 */
export const limitOldGenerationGrowth = (): void => {
  // A flag V8 reads each time it sets the next limit: set at run time, it applies.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}

/** For `serve` (and the projector's catch-up): the CLI's other commands end before their heap matters. */
export const limitHeapGrowth = (): void => {
  limitOldGenerationGrowth()
  void capYoungGeneration()
}
