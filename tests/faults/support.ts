/// Shared by the fault tests: printing their figures (the issue asks for them in the note) and
/// small timing helpers, the seeded random moments and the projector child process the kill tests use.

import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '../..')

/** Prints one test's figures on a line of their own, easy to find in the run's output. */
export const printFigures = (test: string, figures: Record<string, unknown>): void => {
  const line = Object.entries(figures)
    .map(([name, value]) => `${name}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' ')
  console.log(`[fault figures] ${test}: ${line}`)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const seconds = (ms: number) => Math.round(ms / 100) / 10

/** Counts of each value, e.g. HTTP statuses. */
export const tally = <T extends string | number>(values: readonly T[]): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1
  return counts
}

/** Polls `check` until it holds or `ms` pass; returns how long it took (or throws). */
export const waitUntil = async (what: string, check: () => Promise<boolean>, ms: number): Promise<number> => {
  const started = Date.now()
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return Date.now() - started
    await sleep(50)
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

/** A small seeded generator (mulberry32): random moments that a seed can repeat. */
export const randomFrom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * `tessera serve --role projector` from the compiled CLI in a child process, for the kill tests: a
 * real SIGKILL is what a crashed container does (the connection drops, PostgreSQL rolls the batch
 * back) and no code of the projector runs to clean up. `env` is read at each start, after the
 * test's `beforeAll` has made the database.
 */
export const projectorProcess = (env: () => Record<string, string>) => {
  let child: ChildProcess | null = null
  return {
    start: () => {
      // The global setup built dist/ once, so each restart is only the start. Vite's BASE_URL is
      // not Tessera's.
      const { BASE_URL: _vite, ...inherited } = process.env
      child = spawn(process.execPath, [join(root, 'dist/app/cli/main.js'), 'serve', '--role', 'projector'], {
        env: { ...inherited, NODE_ENV: 'test', LOG_LEVEL: 'fatal', ...env() },
        cwd: root,
        stdio: 'ignore',
      })
    },
    kill: async () => {
      const running = child
      if (!running || running.exitCode !== null) return
      const exited = new Promise((resolve) => running.once('exit', resolve))
      running.kill('SIGKILL')
      await exited
    },
  }
}
