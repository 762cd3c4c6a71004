/// The cost of the log as it grows (issue 31): `BENCH_REPLAY=1 npm run bench` runs this alone.
/// 1. A real Tessera records one person's life over HTTP (replay-template.ts).
/// 2. That pattern is copied into a log of BENCH_REPLAY_EVENTS events (1,000,000), written as event
///    rows in bulk, each copy's personal data sealed under its own key (replay-bulk.ts).
/// 3. `tessera replay`'s rebuild of every read model from it (the same `replay` the command calls,
///    replay-catch-up.ts), in a process of its own: events/s and that process's peak RSS (VmHWM).
/// 4. BENCH_REPLAY_CATCH_UP more events (100,000) are written while no projector runs, then a
///    projector started afresh catches up (replay-catch-up.ts): events/s and peak RSS, with no one
///    else at the database.
/// 5. As many again, caught up the same way while an api server answers get-session (on PostgreSQL):
///    the catch-up paces itself by the database's load (catch-up-pacing.ts), so it takes longer, and
///    get-session's figures quiet, during and after tell what it still costs serving.
/// On PGlite in a temporary directory, or PostgreSQL with BENCH_DATABASE_URL or
/// BENCH_EMBEDDED_POSTGRES=1. Figures are printed and written to bench/results/replay.json.

import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { databaseTargetOf, openEventStore } from '../app/server/open-event-store.js'
import { loadConfig } from '../infra/config/config.js'
import { openDatabase } from '../infra/db/database.js'
import { measureCpu } from './cpu.js'
import { startEmbeddedPostgres } from './embedded-postgres.js'
import { bulkGenerateLog } from './replay-bulk.js'
import { readTemplate, type Template } from './replay-log.js'
import { LOG_EVENTS, runTimed } from './replay-process.js'
import {
  driveGetSession,
  quietGetSession,
  servingShareOfDatabase,
  settleDatabase,
  startApiServer,
} from './replay-serving.js'
import {
  printStatements,
  replayStatementsRequested,
  resetStatements,
  statementFlags,
} from './replay-statements.js'
import { recordTemplate, type TemplatePerson, type TemplateTarget, tesseraEnv } from './replay-template.js'

const MAIN = fileURLToPath(new URL('../app/cli/main.js', import.meta.url))
const STEP = fileURLToPath(new URL('./replay-catch-up.js', import.meta.url))
const RESULTS = fileURLToPath(new URL('../../bench/results/replay.json', import.meta.url))
const TARGETS = { eventsPerSecond: 10_000, peakRssMb: 300 }

export const replayBenchRequested = (env: NodeJS.ProcessEnv): boolean => env.BENCH_REPLAY === '1'

const count = (env: NodeJS.ProcessEnv, name: string, fallback: number): number => {
  const raw = env[name]?.trim()
  const value = raw ? Number(raw) : fallback
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer (got "${raw}")`)
  return value
}

const settingsOf = (env: NodeJS.ProcessEnv) => ({
  events: count(env, 'BENCH_REPLAY_EVENTS', 1_000_000),
  catchUp: count(env, 'BENCH_REPLAY_CATCH_UP', 100_000),
  databaseUrl: env.BENCH_DATABASE_URL?.trim() || undefined,
  embeddedPostgres: env.BENCH_EMBEDDED_POSTGRES === '1',
})

/** Opens the target's log in this process for as long as `work` runs (PGlite allows one process). */
const withStore = async <T>(
  target: TemplateTarget,
  cwd: string,
  work: (
    store: Awaited<ReturnType<typeof openEventStore>>['store'],
    database: Awaited<ReturnType<typeof openDatabase>>,
    secret: string,
  ) => Promise<T>,
) => {
  const config = loadConfig(tesseraEnv(target, 3000), { cwd })
  const database = await openDatabase(databaseTargetOf(config))
  const { store } = await openEventStore(database, config)
  try {
    return await work(store, database, config.secret)
  } finally {
    await store.close()
    await database.close()
  }
}

const generate = async (
  target: TemplateTarget,
  cwd: string,
  template: Template | null,
  events: number,
  firstCopy: number,
) =>
  withStore(target, cwd, async (store, database, secret) => {
    const pattern = template ?? (await readTemplate(store))
    const started = Date.now()
    let reportedAt = started
    const result = await bulkGenerateLog(database.db, pattern, {
      events,
      firstCopy,
      secret,
      progress: (written) => {
        if (Date.now() - reportedAt < 10_000) return
        reportedAt = Date.now()
        console.log(
          `  written ${written.toLocaleString('en')} events (${Math.round(written / ((reportedAt - started) / 1000))}/s)`,
        )
      },
    })
    const seconds = (Date.now() - started) / 1000
    console.log(`  written ${result.written.toLocaleString('en')} events in ${seconds.toFixed(1)} s`)
    return { template: pattern, ...result, seconds }
  })

const perSecond = (events: number, seconds: number) => Math.round(events / seconds)

/** `BENCH_REPLAY_PROFILE=<dir>`: each step writes a V8 CPU profile there (`node --cpu-prof`). */
const profileArgs = (): string[] => {
  const dir = process.env.BENCH_REPLAY_PROFILE?.trim()
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []
}

/**
 * One step in a process of its own: events/s over the step itself, the process's wall time and
 * peak RSS, and where the CPU went: the step's process, and the database's processes (when known).
 */
const timedStep = async (
  step: 'replay' | 'catch-up',
  dir: string,
  target: TemplateTarget,
  databasePid: () => number | undefined,
  logEvents?: number,
) => {
  const cpu = measureCpu({ serverPid: process.pid, databasePid }, cpus().length)
  const env = { ...tesseraEnv(target, 3000), ...(logEvents ? { [LOG_EVENTS]: String(logEvents) } : {}) }
  const run = await runTimed([...profileArgs(), STEP, step], dir, env)
  const { database } = cpu()
  const { events, seconds, cpuSeconds, memory } = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as {
    events: number
    seconds: number
    cpuSeconds: number
    memory: Record<string, number>
  }
  return {
    events,
    seconds,
    eventsPerSecond: perSecond(events, seconds),
    processSeconds: run.seconds,
    peakRssMb: Math.round(run.peakRssMb),
    /** CPU milliseconds per 1,000 events: the step's Node process, and the database (0 when unknown). */
    nodeCpuMsPerThousand: Math.round((cpuSeconds * 1e6) / events),
    databaseCpuMsPerThousand: Math.round((database * run.seconds * 1e6) / events),
    /** The step's own highest memory figures (MB), sampled inside it: what its RSS is made of. */
    memory,
  }
}

const SERVING_QUIET_SECONDS = 5
// A fresh server's first requests compile its code: not what a quiet database serves at.
const SERVING_WARM_UP_SECONDS = 3

/**
 * The catch-up step; on PostgreSQL, with get-session served by a Tessera of role `api` meanwhile,
 * measured first on the quiet database, then while the catch-up runs (PGlite is one process's).
 */
const catchUpWhileServing = async (
  label: string,
  dir: string,
  target: TemplateTarget,
  databasePid: () => number | undefined,
  person: TemplatePerson,
) => {
  if (!target.databaseUrl)
    return { catchUp: await timedStep('catch-up', dir, target, databasePid), serving: null }
  await settleDatabase(target.databaseUrl)
  const server = await startApiServer(MAIN, dir, (port) => tesseraEnv(target, port))
  try {
    const warmUp = driveGetSession(server.baseUrl, person.cookie, person.userId)
    await new Promise((resolve) => setTimeout(resolve, SERVING_WARM_UP_SECONDS * 1000))
    await warmUp()
    const quiet = await quietGetSession(server.baseUrl, person, SERVING_QUIET_SECONDS, databasePid)
    console.log(`${label}: get-session on the quiet database: ${JSON.stringify(quiet)}`)
    if (quiet.wrong > 0) console.log(`${label}: the api server said:\n${server.output()}`)
    const duringRun = driveGetSession(server.baseUrl, person.cookie, person.userId)
    const statements = replayStatementsRequested(process.env)
    if (statements) await resetStatements(target.databaseUrl)
    const catchUp = await timedStep('catch-up', dir, target, databasePid)
    const during = await duringRun()
    if (statements)
      await printStatements(
        target.databaseUrl,
        catchUp.events,
        `${label}: the catch-up's statements (get-session's among them)`,
      )
    const servingDatabaseMsPerThousand = servingShareOfDatabase(quiet, during, catchUp)
    // Again once caught up: the first quiet figure follows the bulk write (the database's autovacuum
    // may still be at it), and what other load the host had shows in both.
    const after = await quietGetSession(server.baseUrl, person, SERVING_QUIET_SECONDS, databasePid)
    return { catchUp: { ...catchUp, servingDatabaseMsPerThousand }, serving: { quiet, during, after } }
  } finally {
    await server.stop()
  }
}

/** Runs the replay bench on one database; the figures. */
const benchReplayOn = async (
  label: string,
  databaseUrl: string | undefined,
  settings: ReturnType<typeof settingsOf>,
  databasePid: () => number | undefined = () => undefined,
) => {
  const dir = await mkdtemp(join(tmpdir(), 'tessera-replay-bench-'))
  const target: TemplateTarget = {
    databaseUrl,
    dataDir: join(dir, 'data'),
    secret: randomBytes(24).toString('hex'),
    main: MAIN,
  }
  try {
    console.log(`\n${label}: recording the pattern over HTTP…`)
    const person = await recordTemplate(target)
    console.log(`${label}: writing ${settings.events.toLocaleString('en')} events…`)
    const log = await generate(target, dir, null, settings.events, 1)
    const total = log.written + log.template.recorded
    console.log(`${label}: tessera replay over ${total.toLocaleString('en')} events…`)
    const statements = replayStatementsRequested(process.env) && databaseUrl
    if (statements) await resetStatements(databaseUrl)
    const replay = await timedStep('replay', dir, target, databasePid, total)
    if (statements) await printStatements(databaseUrl, replay.events, `${label}: the replay's statements`)
    const announceWrite = (what: string) =>
      console.log(
        `${label}: writing ${settings.catchUp.toLocaleString('en')} events with no projector running${what}…`,
      )
    announceWrite('')
    const written = await generate(target, dir, log.template, settings.catchUp, log.nextCopy)
    console.log(`${label}: a projector catching up, no one else at the database…`)
    const quietCatchUp = await timedStep('catch-up', dir, target, databasePid)
    announceWrite(' again')
    await generate(target, dir, log.template, settings.catchUp, written.nextCopy)
    console.log(`${label}: a projector catching up while an api server serves…`)
    const { catchUp, serving } = await catchUpWhileServing(label, dir, target, databasePid, person)
    return {
      database: label,
      patternEvents: log.template.events,
      generated: {
        events: total,
        seconds: log.seconds,
        eventsPerSecond: perSecond(log.written, log.seconds),
      },
      replay,
      quietCatchUp,
      catchUp,
      serving,
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

type ReplayFigures = Awaited<ReturnType<typeof benchReplayOn>>

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED')

const report = (run: ReplayFigures) => {
  const { replay, catchUp } = run
  console.log(
    `\n${run.database} — log of ${replay.events.toLocaleString('en')} events (a pattern of ${run.patternEvents} per person)`,
  )
  console.log(`  generated       ${run.generated.eventsPerSecond}/s written in bulk`)
  console.log(
    `  tessera replay  ${replay.seconds.toFixed(1)} s (${replay.processSeconds.toFixed(1)} s with the process's start), ${replay.eventsPerSecond} events/s (target ≥ ${TARGETS.eventsPerSecond} on PostgreSQL: ${verdict(replay.eventsPerSecond >= TARGETS.eventsPerSecond)}), peak RSS ${replay.peakRssMb} MB (target ≤ ${TARGETS.peakRssMb}: ${verdict(replay.peakRssMb <= TARGETS.peakRssMb)})`,
  )
  const catchUpLine = (name: string, step: typeof catchUp) =>
    console.log(
      `  ${name} ${step.events.toLocaleString('en')} events in ${step.seconds.toFixed(1)} s (${step.processSeconds.toFixed(1)} s with the start), ${step.eventsPerSecond} events/s, peak RSS ${step.peakRssMb} MB`,
    )
  catchUpLine('catch-up, quiet', run.quietCatchUp)
  catchUpLine(run.serving ? 'catch-up, serving' : 'catch-up again  ', catchUp)
  if (run.serving) {
    const { quiet, during, after } = run.serving
    const figures = (f: typeof during) =>
      `${f.perSecond}/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms${f.wrong > 0 ? `, ${f.wrong} WRONG` : ''}`
    console.log(
      `  get-session c8  quiet: ${figures(quiet)} (${quiet.databaseCpuMsPerAnswer} ms of database CPU each); during the catch-up: ${figures(during)}; after it: ${figures(after)}`,
    )
  }
  for (const [name, step] of [
    ['replay', replay],
    ['quiet catch-up', run.quietCatchUp],
    ['catch-up', catchUp],
  ] as const) {
    // The database's processes served get-session meanwhile: their part, at its quiet cost per answer.
    const serving = 'servingDatabaseMsPerThousand' in step ? step.servingDatabaseMsPerThousand : null
    const share = serving === null ? '' : ` (about ${serving} ms of it get-session's)`
    console.log(
      `  CPU per 1,000 events (${name}): ${step.nodeCpuMsPerThousand} ms in Node, ${step.databaseCpuMsPerThousand} ms in the database${share}; memory (MB, highest): ${JSON.stringify(step.memory)}`,
    )
  }
}

/** `BENCH_REPLAY=1 npm run bench`: the replay bench alone, on PGlite or PostgreSQL as asked. */
export const runReplayBench = async (env: NodeJS.ProcessEnv): Promise<void> => {
  const settings = settingsOf(env)
  const started = Date.now()
  const runs: ReplayFigures[] = []
  if (env.BENCH_PGLITE !== '0') runs.push(await benchReplayOn('PGlite', undefined, settings))
  if (settings.databaseUrl) runs.push(await benchReplayOn('PostgreSQL', settings.databaseUrl, settings))
  else if (settings.embeddedPostgres) {
    const server = await startEmbeddedPostgres(
      replayStatementsRequested(env) ? { postgresFlags: statementFlags } : {},
    )
    try {
      runs.push(await benchReplayOn('PostgreSQL (embedded)', server.url, settings, () => server.pid()))
    } finally {
      await server.stop()
    }
  }
  for (const run of runs) report(run)
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`\nReplay bench: ${seconds} s in all, ${cpus().length} CPUs.`)
  await mkdir(dirname(RESULTS), { recursive: true })
  await writeFile(
    RESULTS,
    `${JSON.stringify({ at: new Date().toISOString(), settings, seconds, runs }, null, 2)}\n`,
  )
  console.log(`Written to ${RESULTS}`)
}
