/// scrypt on a few worker threads that run at a low CPU priority.
///
/// A password check costs about 100 ms of one core. On libuv's thread pool four of them compete
/// with the event loop at equal priority, so on a small machine a burst of sign-ins starves every
/// other request (get-session p99 went from 6 ms to 800 ms under mixed load). Here each worker
/// lowers its own thread's priority (Linux nice values are per thread), so the event loop and the
/// database always come first and password work takes what CPU is left: when the machine is idle
/// sign-ins are as fast as before, when it is busy they queue rather than everything else.

import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

export type ScryptParams = { N: number; r: number; p: number; maxmem: number }

type Job = {
  password: string
  salt: string
  keyBytes: number
  params: ScryptParams
  resolve: (key: Buffer) => void
  reject: (error: Error) => void
}

/**
 * Nice 10 weighs about a tenth of a normal thread: the event loop wins whenever it has work, while
 * password checks still get a share when some other program on the host keeps the CPU busy (at
 * 19 they would get almost nothing). Lowering one's own priority needs no privilege.
 */
export const WORKER_NICE = 10

// Plain CommonJS so it runs as an `eval` worker from the TypeScript sources under test and from
// the compiled build alike, without a separate file to locate.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { scryptSync } = require('node:crypto')
const { readlinkSync } = require('node:fs')
const { setPriority } = require('node:os')
try {
  // /proc/thread-self -> "<pid>/task/<tid>": setpriority on a tid changes that thread only.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
  setPriority(tid, ${WORKER_NICE})
} catch {
  // Not Linux: the worker keeps the normal priority and still keeps scrypt off the event loop.
}
parentPort.on('message', ({ password, salt, keyBytes, params }) => {
  try {
    const key = scryptSync(password, salt, keyBytes, params)
    parentPort.postMessage({ key }, [key.buffer])
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) })
  }
})
`

type Slot = { worker: Worker; job: Job | null }

const slots: Slot[] = []
const queue: Job[] = []

const settle = (slot: Slot, outcome: { key?: Uint8Array; error?: string }) => {
  const job = slot.job
  slot.job = null
  if (job) {
    if (outcome.key)
      job.resolve(Buffer.from(outcome.key.buffer, outcome.key.byteOffset, outcome.key.byteLength))
    else job.reject(new Error(outcome.error ?? 'scrypt failed'))
  }
  next(slot)
}

const spawn = (): Slot => {
  // No inherited node flags: one such as --input-type=module would make the CommonJS source fail.
  // Small heap limits: a worker holds one job's strings and a 64-byte key (scrypt's own 32 MB is
  // native memory), and each worker's heap adds to the server's resident memory.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  })
  // Idle workers must not keep a process (a CLI command, a test run) alive.
  worker.unref()
  const slot: Slot = { worker, job: null }
  worker.on('message', (outcome: { key?: Uint8Array; error?: string }) => settle(slot, outcome))
  // A worker that died (an error, or an exit nobody asked for) takes its job with it, and a fresh
  // one takes its place for the queue.
  const retire = (error: Error) => {
    const index = slots.indexOf(slot)
    if (index === -1) return
    slots.splice(index, 1)
    slot.job?.reject(error)
    slot.job = null
    dispatch()
  }
  worker.on('error', retire)
  worker.on('exit', (code) => retire(new Error(`the password worker exited (code ${code})`)))
  slots.push(slot)
  return slot
}

const next = (slot: Slot) => {
  const job = queue.shift()
  if (!job) {
    slot.worker.unref()
    return
  }
  slot.job = job
  // A worker with work in hand keeps the process alive until the answer is back.
  slot.worker.ref()
  slot.worker.postMessage({
    password: job.password,
    salt: job.salt,
    keyBytes: job.keyBytes,
    params: job.params,
  })
}

const size = () => Math.max(1, availableParallelism())

const dispatch = () => {
  while (queue.length > 0) {
    const idle = slots.find((slot) => slot.job === null) ?? (slots.length < size() ? spawn() : undefined)
    if (!idle) return
    next(idle)
  }
}

/** scrypt(password, salt) on the pool; answers in the order the CPU allows. */
export const scryptInPool = (
  password: string,
  salt: string,
  keyBytes: number,
  params: ScryptParams,
): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    queue.push({ password, salt, keyBytes, params, resolve, reject })
    dispatch()
  })
