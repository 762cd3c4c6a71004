/// scrypt on worker threads of our own, at a low CPU priority, one check per core at a time.
///
/// Each worker runs the key derivation (PBKDF2) with node:crypto and ROMix, scrypt's memory-hard
/// core, as WebAssembly with SIMD (romix.as.ts): four Salsa20 quarter-rounds at once. A check takes
/// about 60% of the CPU of node:crypto's scrypt (OpenSSL's), for the very same hashes, though it
/// keeps only half of scrypt's table and makes the rest again (romix.as.ts says why).
///
/// A password check costs tens of milliseconds of one core. At normal priority, checks running
/// beside the event loop take their share of a small machine's cores, and a burst of sign-ins
/// starves every other request (get-session p99 went from 6 ms to 800 ms under mixed load). At nice
/// 10 the event loop and the database come first and password work takes what CPU is left: when
/// the machine is idle sign-ins are as fast as ever, when it is busy they queue rather than
/// everything else. Linux nice values belong to threads, so each worker lowers its own (on other
/// systems they belong to the process, and the checks keep the normal priority).
///
/// Memory: a worker keeps its 16 MB of ROMix memory once grown (the next checks need it again, and
/// memory mapped afresh for every check is faulted in page by page, a fifth of node:crypto's CPU per
/// check). It is zeroed after every check: what it held would let a password guess skip most of
/// the work.

import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { ROMIX_WASM_BASE64 } from './romix-wasm.js'

export type ScryptParams = { N: number; r: number; p: number; maxmem: number }

/**
 * Nice 10 weighs about a tenth of a normal thread: the event loop wins whenever it has work, while
 * password checks still get a share when some other program on the host keeps the CPU busy (at
 * 19 they would get almost nothing).
 */
export const WORKER_NICE = 10

/**
 * Checks at once: one per core, so they use the cores the event loop leaves. Each worker holds
 * 16 MB, so more than the cores can run would only add memory.
 */
export const scryptConcurrency = (cores = availableParallelism()): number => Math.max(1, cores)

export class ScryptParamsError extends Error {
  override readonly name = 'ScryptParamsError'
}

// wasm32 addresses 4 GiB; ROMix needs N / 2 + 3 blocks of 128·r bytes (and the check below keeps to
// what node:crypto accepts, N · 128 · r within maxmem).
const WASM_MEMORY_LIMIT = 2 ** 32 - 2 ** 20

/** The same limits node:crypto's scrypt sets, refused before any work is queued. */
const checkParams = ({ N, r, p, maxmem }: ScryptParams, keyBytes: number): void => {
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 1
  if (!whole(N) || N < 2 || (N & (N - 1)) !== 0 || N > 2 ** 31)
    throw new ScryptParamsError('Invalid scrypt params: N must be a power of two above 1')
  if (!whole(r) || !whole(p) || r * p >= 2 ** 30)
    throw new ScryptParamsError('Invalid scrypt params: r and p must be whole and r·p below 2^30')
  if (!whole(keyBytes)) throw new ScryptParamsError('Invalid scrypt params: the key needs at least one byte')
  const memory = 128 * N * r
  if (memory > maxmem || (N / 2 + 3) * 128 * r > WASM_MEMORY_LIMIT)
    throw new ScryptParamsError(`Invalid scrypt params: ${memory} bytes exceed the memory limit`)
}

// The worker's code, an ES module in a data: URL: no file to find in the sources or in dist, and
// read as a module whatever flags the process was started with.
const WORKER_CODE = `
import { parentPort, workerData } from 'node:worker_threads'
import { pbkdf2Sync } from 'node:crypto'
import { setPriority } from 'node:os'
let priority = workerData.nice === null ? 'nice values belong to the whole process on ' + process.platform : null
try {
  if (workerData.nice !== null) setPriority(workerData.nice) // this thread's alone, on Linux
} catch (error) {
  priority = String(error && error.message)
}
const { memory, romix, workArea, memoryNeeded } = new WebAssembly.Instance(workerData.module, {}).exports
parentPort.postMessage({ priority })
parentPort.on('message', ({ password, salt, keyBytes, N, r, p }) => {
  try {
    const blockBytes = 128 * r
    const needed = memoryNeeded(N, r)
    if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536))
    const blocks = pbkdf2Sync(password, salt, 1, p * blockBytes, 'sha256')
    const at = workArea()
    try {
      for (let i = 0; i < p; i++) {
        new Uint8Array(memory.buffer, at, blockBytes).set(blocks.subarray(i * blockBytes, (i + 1) * blockBytes))
        romix(N, r)
        blocks.set(new Uint8Array(memory.buffer, at, blockBytes), i * blockBytes)
      }
      parentPort.postMessage({ key: pbkdf2Sync(password, blocks, 1, keyBytes, 'sha256') })
    } finally {
      new Uint8Array(memory.buffer, at, needed - at).fill(0)
      blocks.fill(0)
    }
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) })
  } finally {
    password.fill(0)
  }
})
`

type Input = { password: Uint8Array<ArrayBuffer>; salt: Uint8Array<ArrayBuffer>; keyBytes: number } & Omit<
  ScryptParams,
  'maxmem'
>
type Job = { input: Input; resolve: (key: Buffer) => void; reject: (error: Error) => void }
type Slot = { worker: Worker; job: Job | null; ready: boolean }

let romixModule: WebAssembly.Module | undefined
const slots: Slot[] = []
const queue: Job[] = []
let priorityWarned = false
// Fixed for the life of the process.
let concurrency: number | undefined

const settle = (slot: Slot, outcome: { key?: Uint8Array; error?: string }) => {
  const { job } = slot
  slot.job = null
  // An idle worker must not keep the process alive; a busy one must (a CLI awaiting a hash).
  slot.worker.unref()
  if (job) {
    if (outcome.key) job.resolve(Buffer.from(outcome.key))
    else job.reject(new Error(outcome.error ?? 'scrypt gave no key'))
  }
  startNext()
}

const spawn = (): Slot => {
  romixModule ??= new WebAssembly.Module(Buffer.from(ROMIX_WASM_BASE64, 'base64'))
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER_CODE)}`), {
    // Elsewhere a worker's setPriority would lower the event loop's priority too.
    workerData: { module: romixModule, nice: process.platform === 'linux' ? WORKER_NICE : null },
    stdout: false,
    stderr: false,
  })
  const slot: Slot = { worker, job: null, ready: false }
  worker.on('message', (message: { priority?: string | null; key?: Uint8Array; error?: string }) => {
    if (!slot.ready) {
      slot.ready = true
      // A failure only costs latency under load: said once, rather than failing sign-ins.
      if (message.priority && !priorityWarned) {
        priorityWarned = true
        process.emitWarning(`password checks run at normal priority: ${message.priority}`)
      }
      // Idle unless startNext gives it a check, in the same tick.
      slot.worker.unref()
      startNext()
      return
    }
    settle(slot, message)
  })
  // A worker that died (out of memory, or ended by someone) takes its check with it; the next
  // check gets a fresh worker.
  const lost = (error: Error) => {
    const index = slots.indexOf(slot)
    if (index === -1) return
    slots.splice(index, 1)
    const reason = `the password check's worker stopped: ${error.message}`
    // One that never started will not start next time either: the waiting checks fail with it.
    if (!slot.ready) for (const job of queue.splice(0)) job.reject(new Error(reason))
    settle(slot, { error: reason })
  }
  worker.on('error', lost)
  worker.on('exit', (code) => lost(new Error(`exit code ${code}`)))
  // Referenced while it starts: it was made for a check that is waiting.
  slots.push(slot)
  return slot
}

const startNext = () => {
  concurrency ??= scryptConcurrency()
  while (queue.length > 0) {
    const idle = slots.find((slot) => slot.ready && slot.job === null)
    if (!idle) {
      // A worker still starting takes the next job once it is ready.
      if (slots.length < concurrency && !slots.some((slot) => !slot.ready)) spawn()
      return
    }
    const job = queue.shift() as Job
    idle.job = job
    idle.worker.ref()
    // Moved, not copied: the password's bytes leave this thread's memory for the worker's, which
    // zeroes them after the check.
    idle.worker.postMessage(job.input, [job.input.password.buffer, job.input.salt.buffer])
  }
}

/** scrypt(password, salt) on the workers; answers in the order the CPU allows. */
export const scryptOnWorkers = (
  password: string,
  salt: string,
  keyBytes: number,
  params: ScryptParams,
): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    checkParams(params, keyBytes)
    const { N, r, p } = params
    // As node:crypto reads strings: UTF-8. Each in a buffer of its own (not Buffer's shared pool),
    // so it can be moved.
    const bytes = (text: string) => {
      const out = new Uint8Array(Buffer.byteLength(text, 'utf8'))
      Buffer.from(out.buffer).write(text, 'utf8')
      return out
    }
    queue.push({
      input: { password: bytes(password), salt: bytes(salt), keyBytes, N, r, p },
      resolve,
      reject,
    })
    startNext()
  })
