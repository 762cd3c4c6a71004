/// Linux perf on a bench's server, for the cost tools (verify-totp-cost.ts, oauth-costs.ts): with
/// `BENCH_PERF_DIR`, perf samples the server's main thread on CPU only (not while it waits for a
/// core, as a V8 profile's wall-clock samples do on a loaded machine) during a window; run with
/// `BENCH_NODE_ARGS=--perf-basic-prof` so perf can name the JavaScript functions.

import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'

/** The children of `parent` (a postmaster's backends, its WAL writer, autovacuum), from /proc. */
export const childrenOf = (parent: number): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && parentOf(entry) === parent)
    .map(Number)

const parentOf = (pid: string): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // After the command's closing parenthesis: the state, then the parent's pid.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return null
  }
}

/**
 * Starts recording `pid`'s main thread into `BENCH_PERF_DIR/<name>-<time>.perf.data`; null without
 * the variable. `processes`: those whole processes instead (a database's backends).
 */
export const perfRecord = (pid: number, name = 'round', processes?: readonly number[]) => {
  const dir = process.env.BENCH_PERF_DIR
  if (!dir) return null
  const file = `${dir}/${name}-${Date.now()}.perf.data`
  // `BENCH_PERF_THREADS=all`: every thread of the server (V8's optimizing compiler and GC helpers too).
  const target = processes || process.env.BENCH_PERF_THREADS === 'all' ? '-p' : '-t'
  const pids = processes ? processes.join(',') : String(pid)
  const args = ['record', '-q', '-g', '-e', 'cpu-clock', '-F', '997', target, pids, '-o', file]
  const child = spawn('perf', args, { stdio: 'inherit' })
  return {
    async stop() {
      child.kill('SIGINT')
      await once(child, 'exit')
      console.log(`perf samples in ${file}`)
    },
  }
}

/** The node flags the bench's server is started with, from `BENCH_NODE_ARGS` (e.g. `--perf-basic-prof`). */
export const extraNodeArgs = (): string[] => (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)
