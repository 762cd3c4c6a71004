/// The cost of the log as it grows (issue 31): `BENCH_REPLAY=1 npm run bench` runs this alone.
/// 1. A real Tessera records one person's life over HTTP (replay-template.ts).
/// 2. That pattern is copied into a log of BENCH_REPLAY_EVENTS events (1,000,000) through the event
///    store's append path (replay-log.ts).
/// 3. `tessera replay`'s rebuild of every read model from it (the same `replay` the command calls,
///    replay-catch-up.ts), in a process of its own: events/s and that process's peak RSS (VmHWM).
/// 4. BENCH_REPLAY_CATCH_UP more events (100,000) are written while no projector runs, then a
///    projector started afresh catches up (replay-catch-up.ts): events/s and peak RSS.
/// On PGlite in a temporary directory, or PostgreSQL with BENCH_DATABASE_URL or
/// BENCH_EMBEDDED_POSTGRES=1. Figures are printed and written to bench/results/replay.json.

import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { databaseTargetOf, openEventStore } from '../app/server/tessera.js'
import { loadConfig } from '../infra/config/config.js'
import { openDatabase } from '../infra/db/database.js'
import { startEmbeddedPostgres } from './embedded-postgres.js'
import { generateLog, readTemplate, type Template } from './replay-log.js'
import { runTimed } from './replay-process.js'
import { recordTemplate, type TemplateTarget, tesseraEnv } from './replay-template.js'

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
  copiesPerAppend: count(env, 'BENCH_REPLAY_COPIES_PER_APPEND', 20),
  databaseUrl: env.BENCH_DATABASE_URL?.trim() || undefined,
  embeddedPostgres: env.BENCH_EMBEDDED_POSTGRES === '1',
})

/** Opens the target's log in this process for as long as `work` runs (PGlite allows one process). */
const withStore = async <T>(
  target: TemplateTarget,
  cwd: string,
  work: (store: Awaited<ReturnType<typeof openEventStore>>['store']) => Promise<T>,
) => {
  const config = loadConfig(tesseraEnv(target, 3000), { cwd })
  const database = await openDatabase(databaseTargetOf(config))
  const { store } = await openEventStore(database, config)
  try {
    return await work(store)
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
  copiesPerAppend: number,
) =>
  withStore(target, cwd, async (store) => {
    const pattern = template ?? (await readTemplate(store))
    const started = Date.now()
    let reportedAt = started
    const result = await generateLog(store, pattern, {
      events,
      firstCopy,
      copiesPerAppend,
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

/** One step in a process of its own: events/s over the step itself, the process's wall time and peak RSS. */
const timedStep = async (step: 'replay' | 'catch-up', dir: string, target: TemplateTarget) => {
  const run = await runTimed([STEP, step], dir, tesseraEnv(target, 3000))
  const { events, seconds } = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as {
    events: number
    seconds: number
  }
  return {
    events,
    seconds,
    eventsPerSecond: perSecond(events, seconds),
    processSeconds: run.seconds,
    peakRssMb: Math.round(run.peakRssMb),
  }
}

/** Runs the replay bench on one database; the figures. */
const benchReplayOn = async (
  label: string,
  databaseUrl: string | undefined,
  settings: ReturnType<typeof settingsOf>,
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
    await recordTemplate(target)
    console.log(`${label}: writing ${settings.events.toLocaleString('en')} events…`)
    const log = await generate(target, dir, null, settings.events, 1, settings.copiesPerAppend)
    const total = log.written + log.template.events
    console.log(`${label}: tessera replay over ${total.toLocaleString('en')} events…`)
    const replay = await timedStep('replay', dir, target)
    console.log(
      `${label}: writing ${settings.catchUp.toLocaleString('en')} events with no projector running…`,
    )
    await generate(target, dir, log.template, settings.catchUp, log.nextCopy, settings.copiesPerAppend)
    console.log(`${label}: a projector catching up…`)
    const catchUp = await timedStep('catch-up', dir, target)
    return {
      database: label,
      patternEvents: log.template.events,
      generated: {
        events: total,
        seconds: log.seconds,
        eventsPerSecond: perSecond(log.written, log.seconds),
      },
      replay,
      catchUp,
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
  console.log(`  generated       ${run.generated.eventsPerSecond}/s through the append path`)
  console.log(
    `  tessera replay  ${replay.seconds.toFixed(1)} s (${replay.processSeconds.toFixed(1)} s with the process's start), ${replay.eventsPerSecond} events/s (target ≥ ${TARGETS.eventsPerSecond} on PostgreSQL: ${verdict(replay.eventsPerSecond >= TARGETS.eventsPerSecond)}), peak RSS ${replay.peakRssMb} MB (target ≤ ${TARGETS.peakRssMb}: ${verdict(replay.peakRssMb <= TARGETS.peakRssMb)})`,
  )
  console.log(
    `  catch-up        ${catchUp.events.toLocaleString('en')} events in ${catchUp.seconds.toFixed(1)} s (${catchUp.processSeconds.toFixed(1)} s with the start), ${catchUp.eventsPerSecond} events/s, peak RSS ${catchUp.peakRssMb} MB`,
  )
}

/** `BENCH_REPLAY=1 npm run bench`: the replay bench alone, on PGlite or PostgreSQL as asked. */
export const runReplayBench = async (env: NodeJS.ProcessEnv): Promise<void> => {
  const settings = settingsOf(env)
  const started = Date.now()
  const runs: ReplayFigures[] = []
  if (env.BENCH_PGLITE !== '0') runs.push(await benchReplayOn('PGlite', undefined, settings))
  if (settings.databaseUrl) runs.push(await benchReplayOn('PostgreSQL', settings.databaseUrl, settings))
  else if (settings.embeddedPostgres) {
    const server = await startEmbeddedPostgres()
    try {
      runs.push(await benchReplayOn('PostgreSQL (embedded)', server.url, settings))
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
