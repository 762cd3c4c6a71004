/// One timed child process of the replay bench (`tessera replay`, the catch-up projector): its wall
/// time from spawn to exit and its peak resident set (VmHWM, read from /proc until it exits).

import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

const SAMPLE_MS = 100

/** The replay step's environment variable for the events in the log (bench/replay.ts wrote them). */
export const LOG_EVENTS = 'BENCH_REPLAY_LOG_EVENTS'

export type TimedRun = { seconds: number; peakRssMb: number; stdout: string }

const highWaterKb = (pid: number): number => {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] ? Number(match[1]) : 0
  } catch {
    // Exited between two samples: the last sample stands.
    return 0
  }
}

/** Runs `node <args>` in `cwd` with `env`; rejects with its output when it fails. */
export const runTimed = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<TimedRun> =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let peakKb = 0
    const sample = () => {
      if (child.pid !== undefined) peakKb = Math.max(peakKb, highWaterKb(child.pid))
    }
    const timer = setInterval(sample, SAMPLE_MS)
    const output: string[] = []
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')))
    child.once('error', reject)
    child.once('exit', (code) => {
      clearInterval(timer)
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const stdout = output.join('')
      if (code === 0) resolve({ seconds, peakRssMb: peakKb / 1024, stdout })
      else reject(new Error(`node ${args.join(' ')} exited with ${code}:\n${stdout.slice(-4000)}`))
    })
  })
