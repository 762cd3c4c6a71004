/// Runs a server under test as its own process (so the load generator never shares its event
/// loop), after its `migrate` step in another process, waits until it answers `/api/auth/ok`, and
/// watches its memory through /proc. Tessera is one such server; better-auth (bench/better-auth.ts)
/// the other.

import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BENCH_SERVER_KEY } from './api-keys.js'
import { tesseraConfigFile } from './features-config.js'
import { receiverTls } from './receiver-tls.js'
import { rememberSecret } from './server-secrets.js'

const MAIN = fileURLToPath(new URL('../app/cli/main.js', import.meta.url))
const START_TIMEOUT_MS = 120_000
const STOP_TIMEOUT_MS = 15_000
const RSS_SAMPLE_MS = 250
const LOG_LINES_KEPT = 40

export type ServerOptions = {
  /** PostgreSQL URL; PGlite in a fresh temporary directory when absent. */
  databaseUrl?: string
  /** Extra node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  nodeArgs: readonly string[]
  /** With the feature plugins' options (bench/features-config.ts). */
  features?: boolean
}

export type RunningServer = {
  baseUrl: string
  pid: number
  /** Highest resident set size seen, in bytes (kernel high-water mark and our own samples). */
  peakRss(): number
  /** Throws if the server has exited; a benchmark against a dead server measures nothing. */
  assertAlive(): void
  stop(): Promise<void>
}

/** A server program with `migrate` and `serve` commands, run in `workDir` (removed at the end). */
export type ServerProgram = {
  label: string
  script: string
  workDir: string
  port: number
  env: NodeJS.ProcessEnv
  nodeArgs: readonly string[]
}

/** Tessera: `node dist/app/cli/main.js serve` in a fresh directory, as deployed. */
export const startServer = async (options: ServerOptions): Promise<RunningServer> => {
  // The working directory is a fresh one too, so no `.env` or `tessera.config.json` leaks in.
  const workDir = await mkdtemp(join(tmpdir(), 'tessera-bench-'))
  // Feature options to measure with (e.g. `{"jwt":{"enabled":false}}` for get-session without JWTs).
  const configFile = tesseraConfigFile(options.features === true, process.env.BENCH_CONFIG)
  if (configFile) await writeFile(join(workDir, 'tessera.config.json'), configFile)
  const port = await freePort()
  return startProgram({
    label: 'tessera',
    script: MAIN,
    workDir,
    port,
    env: {
      ...serverEnv(port, workDir, options.databaseUrl),
      // The webhook receiver's certificate (bench/receiver-tls.ts).
      ...(options.features ? { NODE_EXTRA_CA_CERTS: receiverTls().certPath } : {}),
    },
    nodeArgs: options.nodeArgs,
  })
}

export const startProgram = async (program: ServerProgram): Promise<RunningServer> => {
  const { workDir, env } = program
  await migrate(program).catch(async (error: unknown) => {
    await rm(workDir, { recursive: true, force: true })
    throw error
  })
  const child = spawn(process.execPath, [...program.nodeArgs, program.script, 'serve'], {
    cwd: workDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = keepTail(child)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let exitCode: number | null | undefined
  void exited.then((code) => {
    exitCode = code
  })
  const baseUrl = `http://127.0.0.1:${program.port}`
  const cleanup = () => rm(workDir, { recursive: true, force: true })
  try {
    await waitUntilReady(baseUrl, () => exitCode !== undefined)
  } catch (error) {
    child.kill('SIGKILL')
    await exited
    await cleanup()
    throw new Error(
      `${program.label}: ${error instanceof Error ? error.message : String(error)}\nServer output:\n${log.join('\n')}`,
    )
  }
  const pid = child.pid ?? 0
  const memory = watchMemory(pid)
  return {
    baseUrl,
    pid,
    peakRss: memory.peak,
    assertAlive() {
      if (exitCode !== undefined)
        throw new Error(`${program.label} exited (code ${exitCode}) during the benchmark:\n${log.join('\n')}`)
    },
    async stop() {
      memory.stop()
      if (exitCode === undefined) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
        await exited
        clearTimeout(timer)
      }
      await cleanup()
    },
  }
}

/**
 * Creates the database beforehand in a process of its own: PGlite's one-off initdb leaves some
 * 800 MB resident for the life of the process that ran it, which says nothing about serving.
 */
const migrate = ({ label, script, workDir, env }: ServerProgram): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [script, 'migrate'], { cwd: workDir, env }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${label} migrate failed: ${error.message}\n${stderr}`)) : resolve(),
    )
  })

/**
 * What every server under test starts with: this environment (e.g. `UV_THREADPOOL_SIZE`) without
 * a database of its own choosing, production mode, its port and its address.
 */
export const baseServerEnv = (port: number): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  return {
    ...inherited,
    // As deployed; only the start-up warnings differ from development.
    NODE_ENV: 'production',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
  }
}

const serverEnv = (port: number, workDir: string, databaseUrl: string | undefined): NodeJS.ProcessEnv => ({
  ...baseServerEnv(port),
  HOST: '127.0.0.1',
  DATA_DIR: join(workDir, 'data'),
  LOG_LEVEL: 'warn',
  AUTH_SECRET: rememberSecret('Tessera', port, randomBytes(24).toString('hex')),
  RATE_LIMIT: 'off',
  // The API-key scenarios verify over the server API (bench/api-keys.ts).
  SERVER_KEYS: `bench=${BENCH_SERVER_KEY}`,
  // Production refuses to start without a mail transport; the benchmark sends no mail, so a port
  // nothing listens on will do.
  SMTP_URL: 'smtp://127.0.0.1:9',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
})

const keepTail = (child: ChildProcess): string[] => {
  const lines: string[] = []
  const collect = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').trimEnd().split('\n'))
    if (lines.length > LOG_LINES_KEPT) lines.splice(0, lines.length - LOG_LINES_KEPT)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  return lines
}

const waitUntilReady = async (baseUrl: string, hasExited: () => boolean): Promise<void> => {
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error('the server exited before it was ready')
    try {
      const response = await fetch(`${baseUrl}/api/auth/ok`)
      const body: unknown = await response.json()
      if (response.ok && typeof body === 'object' && body !== null && 'ok' in body && body.ok === true) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the server did not answer /api/auth/ok within ${START_TIMEOUT_MS / 1000} s`)
}

const statusKilobytes = (pid: number, field: 'VmHWM' | 'VmRSS'): number => {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    )
    return match?.[1] ? Number(match[1]) : 0
  } catch {
    return 0
  }
}

// VmHWM is the kernel's own peak; the samples of VmRSS are a fallback where it is missing.
const watchMemory = (pid: number) => {
  let peakKb = 0
  const sample = () => {
    peakKb = Math.max(peakKb, statusKilobytes(pid, 'VmHWM'), statusKilobytes(pid, 'VmRSS'))
  }
  const timer = setInterval(sample, RSS_SAMPLE_MS)
  timer.unref()
  return {
    peak: () => {
      sample()
      return peakKb * 1024
    },
    stop: () => {
      sample()
      clearInterval(timer)
    },
  }
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      )
    })
  })
