/// Serving while a projector catches up (issue 31): a Tessera that serves and does not project
/// (`serve --role api`) answers get-session for the template's person, once on a quiet database and
/// once while the catch-up process applies what the projector missed. Closed loop over keep-alive
/// connections; every answer is checked (the session's user must come back).

import { type ChildProcess, spawn } from 'node:child_process'
import { cpus } from 'node:os'
import pg from 'pg'
import { measureCpu } from './cpu.js'
import { freePort } from './server.js'

const READY_TIMEOUT_MS = 60_000

export type ApiServer = {
  baseUrl: string
  /** The end of what the server wrote (its error logs), to show when answers were wrong. */
  output(): string
  stop(): Promise<void>
}

/** `node <main> serve --role api` in `cwd` with `env` (its PORT set here); resolves once it answers. */
export const startApiServer = async (
  main: string,
  cwd: string,
  env: (port: number) => NodeJS.ProcessEnv,
): Promise<ApiServer> => {
  const port = await freePort()
  const child: ChildProcess = spawn(process.execPath, [main, 'serve', '--role', 'api'], {
    cwd,
    env: env(port),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const errors: string[] = []
  const keep = (chunk: Buffer) => {
    errors.push(chunk.toString('utf8'))
    if (errors.length > 50) errors.shift()
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const output = () => errors.join('').slice(-3000)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const baseUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    child.kill('SIGTERM')
    await exited
  }
  const deadline = Date.now() + READY_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`the api server did not start:\n${output()}`)
    }
    const ok = await fetch(`${baseUrl}/api/auth/ok`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return { baseUrl, output, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export type ServingFigures = {
  requests: number
  seconds: number
  perSecond: number
  p50Ms: number
  p99Ms: number
  /** Answers that were not the session (or not 200), and the first of them. */
  wrong: number
  firstWrong: string | null
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number)

/** Starts `connections` loops of get-session with `cookie`; the returned function stops them and tells. */
export const driveGetSession = (baseUrl: string, cookie: string, userId: string, connections = 8) => {
  const latencies: number[] = []
  let wrong = 0
  let firstWrong: string | null = null
  const fail = (what: string) => {
    wrong += 1
    firstWrong ??= what.slice(0, 200)
  }
  let running = true
  const started = performance.now()
  const loop = async () => {
    while (running) {
      const sent = performance.now()
      try {
        const response = await fetch(`${baseUrl}/api/auth/get-session`, { headers: { cookie } })
        const text = await response.text()
        const body = JSON.parse(text) as { user?: { id?: string } } | null
        if (response.status !== 200 || body?.user?.id !== userId) fail(`${response.status} ${text}`)
        else latencies.push(performance.now() - sent)
      } catch (error) {
        fail(String(error))
      }
    }
  }
  const loops = Array.from({ length: connections }, loop)
  return async (): Promise<ServingFigures> => {
    running = false
    await Promise.all(loops)
    const seconds = (performance.now() - started) / 1000
    const sorted = [...latencies].sort((a, b) => a - b)
    return {
      requests: latencies.length,
      seconds,
      perSecond: Math.round(latencies.length / seconds),
      p50Ms: Number(percentile(sorted, 0.5).toFixed(1)),
      p99Ms: Number(percentile(sorted, 0.99).toFixed(1)),
      wrong,
      firstWrong,
    }
  }
}

/**
 * get-session for `seconds` on the quiet database, and what each answer cost the database in CPU
 * milliseconds. The database's processes serve the api server and the catch-up alike, so this is
 * what lets the catch-up's own share be told from serving's (`servingShareOfDatabase`).
 */
export const quietGetSession = async (
  baseUrl: string,
  person: { cookie: string; userId: string },
  seconds: number,
  databasePid: () => number | undefined,
): Promise<ServingFigures & { databaseCpuMsPerAnswer: number }> => {
  const cpu = measureCpu({ serverPid: process.pid, databasePid }, cpus().length)
  const run = driveGetSession(baseUrl, person.cookie, person.userId)
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  const figures = await run()
  const databaseMs = cpu().database * figures.seconds * 1000
  const databaseCpuMsPerAnswer = figures.requests > 0 ? databaseMs / figures.requests : 0
  return { ...figures, databaseCpuMsPerAnswer: Number(databaseCpuMsPerAnswer.toFixed(3)) }
}

/**
 * Of a catch-up's database CPU per 1,000 events, the milliseconds get-session's answers took
 * meanwhile, at their quiet cost per answer: `during` answered at its rate over the step's seconds.
 */
export const servingShareOfDatabase = (
  quiet: { databaseCpuMsPerAnswer: number },
  during: ServingFigures,
  step: { events: number; processSeconds: number },
): number =>
  Math.round((quiet.databaseCpuMsPerAnswer * during.perSecond * step.processSeconds * 1000) / step.events)

const AUTOVACUUM_WAIT_MS = 120_000

/**
 * Brings the database to what it serves at day to day: the bulk writes and the quiet catch-up grew
 * the tables faster than autovacuum looks (once a minute), and get-session planned on the stale
 * statistics, or measured beside the workers that refresh them, is not on a quiet database. Waits
 * (two minutes at most) until no autovacuum worker has run for two seconds, then analyzes.
 */
export const settleDatabase = async (databaseUrl: string): Promise<void> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const deadline = Date.now() + AUTOVACUUM_WAIT_MS
    let idleSince = Date.now()
    while (Date.now() < deadline && Date.now() - idleSince < 2_000) {
      const { rows } = await client.query<{ workers: number }>(
        "select count(*)::int as workers from pg_stat_activity where backend_type = 'autovacuum worker'",
      )
      if ((rows[0]?.workers ?? 0) > 0) idleSince = Date.now()
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await client.query('analyze')
  } finally {
    await client.end()
  }
}
