/// A password worker that stops (killed, or out of memory) mid-check. In a file of its own: the pool
/// is the module's, and here its first worker is the one this test sees start.

import type { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { scryptOnWorkers } from './scrypt-workers.js'

const PARAMS = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 }

describe('a password worker that stops', () => {
  it('fails the check it held, and the next check gets a fresh worker', async () => {
    const started: { worker: Worker; online: Promise<unknown> }[] = []
    // Heard as the worker is made, before it can come online.
    const onWorker = (worker: Worker) =>
      started.push({ worker, online: new Promise((resolve) => worker.once('online', resolve)) })
    process.on('worker', onWorker)
    try {
      const check = scryptOnWorkers('correct horse', 'salt', 64, PARAMS)
      await expect.poll(() => started.length).toBe(1)
      const [first] = started as [{ worker: Worker; online: Promise<unknown> }]
      await first.online
      await first.worker.terminate()
      await expect(check).rejects.toThrow(/worker stopped/)

      const again = await scryptOnWorkers('correct horse', 'salt', 64, PARAMS)
      expect(again).toHaveLength(64)
      expect(started).toHaveLength(2)
    } finally {
      process.off('worker', onWorker)
    }
  })
})
