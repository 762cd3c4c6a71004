import { existsSync, readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import { niceOfThread } from '../../tests/support/thread-nice.js'
import { lowerThreadPoolPriority, threadPoolSize } from './thread-pool-priority.js'

describe("libuv's pool size", () => {
  it.each([
    [undefined, 4],
    ['8', 8],
    ['0', 1],
    ['not a number', 1],
    ['5000', 1024],
  ])('is read from UV_THREADPOOL_SIZE=%j as libuv does: %i', (configured, expected) => {
    expect(threadPoolSize(configured === undefined ? {} : { UV_THREADPOOL_SIZE: configured })).toBe(expected)
  })
})

describe.runIf(process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch))(
  "lowering the pool's priority",
  () => {
    it('lowers every pool thread and no other, and leaves the pool working', async () => {
      const outcome = await lowerThreadPoolPriority(7)
      if (!outcome.lowered) throw new Error(outcome.reason)
      expect(outcome.threadIds).toHaveLength(threadPoolSize())
      for (const tid of outcome.threadIds) expect(niceOfThread(tid)).toBe(7)
      const others = readdirSync('/proc/self/task').filter((tid) => !outcome.threadIds.includes(Number(tid)))
      expect(others.length).toBeGreaterThan(0)
      // The others keep the process's own priority (0 unless the test run itself was reniced).
      for (const tid of others) expect(niceOfThread(tid)).toBe(niceOfThread(process.pid))
      // No pool thread is left blocked on the FIFO: twice as many reads as threads all finish.
      const reads = Array.from({ length: 2 * threadPoolSize() }, () => readFile('/proc/self/stat', 'utf8'))
      expect((await Promise.all(reads)).every((text) => text.length > 0)).toBe(true)
      // And the FIFO and its directory are gone once the opens returned.
      await outcome.cleanedUp
      expect(existsSync(dirname(outcome.fifo))).toBe(false)
    })
  },
)
