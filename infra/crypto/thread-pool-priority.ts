/// Lowers the CPU priority of libuv's thread pool, where Node runs scrypt.
///
/// Linux nice values belong to threads, and lowering one's own needs no privilege; but Node shows
/// neither the ids nor the names of the pool's threads. They are found by what they do: each pool
/// thread is handed an open() of a FIFO that has no writer, which blocks in the kernel, and the
/// threads that /proc shows blocked in that system call are the pool. Then the FIFO gets a writer,
/// every open returns, and each thread found gets the lower priority.
///
/// This costs ~25 ms once, during which the pool does nothing else. Where any step is not possible
/// (not Linux, an architecture whose system call numbers are not listed here, no `mkfifo`) the pool
/// keeps the normal priority and the caller is told so.

import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdtempSync, open, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { setPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

// libuv reads UV_THREADPOOL_SIZE once, when the pool starts: 4 unless set, at least 1, at most 1024.
const DEFAULT_POOL_SIZE = 4
const MAX_POOL_SIZE = 1024

/** How many threads libuv's pool has in this process. */
export const threadPoolSize = (env: NodeJS.ProcessEnv = process.env): number => {
  const configured = env.UV_THREADPOOL_SIZE
  if (configured === undefined) return DEFAULT_POOL_SIZE
  const parsed = Number.parseInt(configured, 10)
  return Math.min(MAX_POOL_SIZE, Math.max(1, Number.isFinite(parsed) ? parsed : 1))
}

// The system calls a blocked open() shows in /proc/<pid>/task/<tid>/syscall: glibc opens with
// openat; musl on x86-64 may still use open.
const OPEN_SYSCALLS: Partial<Record<NodeJS.Architecture, readonly number[]>> = {
  x64: [257, 2],
  arm64: [56],
}

const POLL_EVERY_MS = 5
// A pool thread busy with a long operation of someone else's is not waited for past this.
const FIND_TIMEOUT_MS = 2_000

const threadsBlockedIn = (syscalls: readonly number[]): string[] =>
  readdirSync('/proc/self/task').filter((tid) => {
    try {
      const current = Number(readFileSync(`/proc/self/task/${tid}/syscall`, 'utf8').split(' ', 1)[0])
      return syscalls.includes(current)
    } catch {
      return false // the thread ended meanwhile
    }
  })

const openForReading = (path: string): Promise<number | undefined> =>
  new Promise((resolve) => open(path, constants.O_RDONLY, (error, fd) => resolve(error ? undefined : fd)))

export type PoolPriorityOutcome =
  | {
      lowered: true
      threadIds: number[]
      /** The FIFO used to find the threads, and when it and its directory are gone. */
      fifo: string
      cleanedUp: Promise<void>
    }
  | { lowered: false; reason: string }

/**
 * Gives every thread of libuv's pool the nice value `nice` (higher is lower priority). Resolves
 * once the threads are found; the FIFO is removed in the background (`cleanedUp`).
 */
export const lowerThreadPoolPriority = async (nice: number): Promise<PoolPriorityOutcome> => {
  const syscalls = OPEN_SYSCALLS[process.arch]
  if (process.platform !== 'linux' || !syscalls)
    return { lowered: false, reason: `not supported on ${process.platform}/${process.arch}` }
  const directory = mkdtempSync(join(tmpdir(), 'tessera-pool-'))
  const fifo = join(directory, 'fifo')
  try {
    // Node has no mkfifo of its own.
    execFileSync('mkfifo', ['-m', '600', fifo], { stdio: 'ignore' })
  } catch (error) {
    rmSync(directory, { recursive: true, force: true })
    return {
      lowered: false,
      reason: `could not make a FIFO: ${error instanceof Error ? error.message : error}`,
    }
  }
  const size = threadPoolSize()
  // Other open() calls may be in flight; only those found while ours are pending count, and the
  // threads blocked on our FIFO are at most `size`.
  const before = new Set(threadsBlockedIn(syscalls))
  const reads = Array.from({ length: size }, () => openForReading(fifo))
  let found: string[] = []
  for (let waited = 0; waited < FIND_TIMEOUT_MS && found.length < size; waited += POLL_EVERY_MS) {
    await sleep(POLL_EVERY_MS)
    found = threadsBlockedIn(syscalls).filter((tid) => !before.has(tid))
  }
  // Read and write at once: never blocks on Linux, and lets every pending open return, including
  // one a busy thread only starts later.
  const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK)
  const cleanedUp = Promise.all(reads)
    .then((fds) => {
      for (const fd of fds) if (fd !== undefined) closeSync(fd)
      closeSync(writer)
      rmSync(directory, { recursive: true, force: true })
    })
    // A leftover empty directory in tmp is not worth an unhandled rejection.
    .catch(() => {})
  const threadIds: number[] = []
  for (const tid of found) {
    try {
      setPriority(Number(tid), nice)
      threadIds.push(Number(tid))
    } catch {
      // A thread that ended meanwhile
    }
  }
  if (threadIds.length === 0) return { lowered: false, reason: 'no pool thread was found' }
  return { lowered: true, threadIds, fifo, cleanedUp }
}
