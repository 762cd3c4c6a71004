/// scrypt on libuv's thread pool, at a low CPU priority and a few at a time.
///
/// A password check costs about 100 ms of one core. At normal priority, checks running beside the
/// event loop take their share of a small machine's cores, and a burst of sign-ins starves every
/// other request (get-session p99 went from 6 ms to 800 ms under mixed load). At nice 10 the event
/// loop and the database come first and password work takes what CPU is left: when the machine is
/// idle sign-ins are as fast as before, when it is busy they queue rather than everything else.
///
/// The pool's own threads run the checks rather than worker threads of our own: a worker is a
/// whole JavaScript environment, and two of them held ~18 MB the pool does not need.

import { scrypt } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { lowerThreadPoolPriority, threadPoolSize } from './thread-pool-priority.js'

export type ScryptParams = { N: number; r: number; p: number; maxmem: number }

/**
 * Nice 10 weighs about a tenth of a normal thread: the event loop wins whenever it has work, while
 * password checks still get a share when some other program on the host keeps the CPU busy (at
 * 19 they would get almost nothing).
 */
export const POOL_NICE = 10

/**
 * Checks at once: one per core, so they use the cores the event loop leaves; and one pool thread
 * always left for file and DNS work. Each check holds 32 MB while it runs, so more at once than
 * the cores can run would only add memory.
 */
export const scryptConcurrency = (cores = availableParallelism(), poolSize = threadPoolSize()): number =>
  Math.max(1, Math.min(cores, poolSize - 1))

type Job = { run: () => void }

const queue: Job[] = []
let running = 0

// Once per process, before the first check. A failure leaves the pool at normal priority, which
// only costs latency under load; it is said once on stderr rather than failing sign-ins.
let priorityLowered: Promise<void> | undefined
const lowerPriorityOnce = (): Promise<void> => {
  priorityLowered ??= lowerThreadPoolPriority(POOL_NICE).then(
    (outcome) => {
      if (!outcome.lowered) process.emitWarning(`password checks run at normal priority: ${outcome.reason}`)
    },
    (error: unknown) => process.emitWarning(`password checks run at normal priority: ${String(error)}`),
  )
  return priorityLowered
}

// Both inputs are fixed for the life of the process (libuv reads its pool size once).
let concurrency: number | undefined

const startNext = () => {
  concurrency ??= scryptConcurrency()
  while (running < concurrency && queue.length > 0) {
    running += 1
    queue.shift()?.run()
  }
}

/** scrypt(password, salt) on the pool; answers in the order the CPU allows. */
export const scryptInPool = async (
  password: string,
  salt: string,
  keyBytes: number,
  params: ScryptParams,
): Promise<Buffer> => {
  await lowerPriorityOnce()
  return new Promise((resolve, reject) => {
    const finish = (error: Error | null, key?: Buffer) => {
      running -= 1
      startNext()
      if (error || !key) reject(error ?? new Error('scrypt gave no key'))
      else resolve(key)
    }
    queue.push({
      run: () => {
        try {
          scrypt(password, salt, keyBytes, params, finish)
        } catch (error) {
          // Parameters Node refuses are refused at once, not in the callback; the slot is free again.
          finish(error instanceof Error ? error : new Error(String(error)))
        }
      },
    })
    startNext()
  })
}
