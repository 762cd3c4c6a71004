/// `npm run bench`: starts Tessera as a separate process on PGlite (and on PostgreSQL when
/// `BENCH_DATABASE_URL` or `BENCH_EMBEDDED_POSTGRES=1` is given) and better-auth 1.7.5 beside it on
/// the same database server (issue 8), seeds users on both, drives each scenario on one server
/// right after the other; prints a table per server and database, the two side by side, the issues'
/// targets, and writes the figures to bench/results/latest.json. Exits non-zero only when the
/// harness itself fails, never for a missed target.
///
/// Settings: BENCH_USERS (1000), BENCH_DURATION and BENCH_WARMUP (10 and 2 seconds per scenario),
/// BENCH_PGLITE=0 (skip PGlite), BENCH_BETTER_AUTH=0 (skip better-auth), BENCH_ONLY (scenario name
/// prefixes, comma-separated), BENCH_NODE_ARGS (node flags for Tessera, e.g.
/// `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_RESULTS (where to write the JSON).

import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  adminDirectoryScenarios,
  NO_DIRECTORY,
  seedAdminDirectory,
  UNSEEDED_DIRECTORY,
} from './admin-users.js'
import { seedApiKeys } from './api-keys.js'
import { startBetterAuth } from './better-auth.js'
import { chosenNames, parseOnly, slug, unmatchedEntries } from './choose.js'
import { type CpuProbe, type CpuUse, measureCpu, waitUntilIdle } from './cpu.js'
import { type EmbeddedServer, startEmbeddedPostgres } from './embedded-postgres.js'
import { factorFigureGroups } from './factor-figures.js'
import { featureGroups } from './feature-groups.js'
import { BOTH, group, nothingToSeed, type ScenarioGroup, TESSERA_ONLY } from './groups.js'
import { runScenario, type ScenarioSpec } from './load.js'
import { runOpenLoop } from './open-loop.js'
import { NO_ORGANIZATIONS, organizationScenarios, seedOrganizations } from './organizations.js'
import { type MixedOpenRates, measurePasswordChecksPerSecond, mixedOpenRates } from './password-capacity.js'
import { replayBenchRequested, runReplayBench } from './replay.js'
import {
  checkTargets,
  type DatabaseLabel,
  type DatabaseRuns,
  formatComparison,
  formatRun,
  formatTargets,
  type MeasuredScenario,
  type RunResult,
  type ServerLabel,
} from './report.js'
import { mergeRounds, windowRatios } from './rounds.js'
import { runtimeBetween, scrapeRuntime } from './runtime-window.js'
import {
  formatStatements,
  readStatements,
  resetStatements,
  statementsFlags,
  statementsRequested,
} from './scenario-statements.js'
import {
  apiKeyScenarios,
  LIST_SESSIONS_PER_USER,
  LIST_SESSIONS_USERS,
  listSessionsScenarios,
  MIXED_OPEN,
  sharedScenarios,
  tesseraScenarios,
} from './scenarios.js'
import { type BenchUser, emailFactory, seedSessions, seedUsers } from './seed.js'
import { type RunningServer, startServer } from './server.js'

const DEFAULT_RESULTS = fileURLToPath(new URL('../../bench/results/latest.json', import.meta.url))
const SEED_CONCURRENCY = 16

type Settings = {
  users: number
  durationSeconds: number
  warmupSeconds: number
  pglite: boolean
  databaseUrl: string | undefined
  embeddedPostgres: boolean
  betterAuth: boolean
  nodeArgs: string[]
  /** Name prefixes of the scenarios to run (all when empty), e.g. `get-session,mixed`. */
  only: string[]
  resultsFile: string
  /** BENCH_STATEMENTS=1: each PostgreSQL window's costliest statements (bench/scenario-statements.ts). */
  statements: boolean
  /** Measured before the servers start (bench/password-capacity.ts). */
  mixedOpen: MixedOpenRates
}

const positive = (env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number => {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < min)
    throw new Error(`${name} must be a number >= ${min} (got "${raw}")`)
  return value
}

const readSettings = (env: NodeJS.ProcessEnv): Omit<Settings, 'mixedOpen'> => ({
  users: Math.floor(positive(env, 'BENCH_USERS', 1000, 1)),
  durationSeconds: positive(env, 'BENCH_DURATION', 10, 1),
  warmupSeconds: positive(env, 'BENCH_WARMUP', 2, 0),
  pglite: env.BENCH_PGLITE !== '0',
  databaseUrl: env.BENCH_DATABASE_URL?.trim() || undefined,
  embeddedPostgres: env.BENCH_EMBEDDED_POSTGRES === '1',
  betterAuth: env.BENCH_BETTER_AUTH !== '0',
  nodeArgs: (env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
  only: parseOnly(env.BENCH_ONLY),
  resultsFile: env.BENCH_RESULTS?.trim() ? resolve(env.BENCH_RESULTS.trim()) : DEFAULT_RESULTS,
  statements: statementsRequested(env),
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

/** In the order they run; the shared ones first, on a server with nothing but its users. */
const SCENARIO_GROUPS: readonly ScenarioGroup[] = [
  group({
    runsOn: BOTH,
    unseeded: undefined,
    seed: nothingToSeed,
    scenarios: (_, { users, email, timing, mixedOpen }) =>
      sharedScenarios({ users, email, mixedOpen, ...timing }),
  }),
  // list-sessions over users of its own: the sign-in scenarios add sessions to the seeded users.
  group({
    runsOn: BOTH,
    unseeded: [] as BenchUser[],
    seed: async ({ baseUrl, email }) => {
      const users = await seedUsers(baseUrl, {
        count: LIST_SESSIONS_USERS,
        concurrency: LIST_SESSIONS_USERS,
        email: (n) => email('sessions', n),
      })
      await seedSessions(baseUrl, users, LIST_SESSIONS_PER_USER, SEED_CONCURRENCY)
      return users
    },
    scenarios: (users, { timing }) => listSessionsScenarios(users, timing),
  }),
  group({
    runsOn: TESSERA_ONLY,
    unseeded: undefined,
    seed: nothingToSeed,
    scenarios: (_, { users, email, timing }) => tesseraScenarios({ users, email, ...timing }),
  }),
  group({
    runsOn: TESSERA_ONLY,
    unseeded: { unlimited: [], limited: [] },
    seed: ({ baseUrl, users }) => seedApiKeys(baseUrl, users),
    scenarios: (keys, { timing }) => apiKeyScenarios(keys, timing),
  }),
  group({
    runsOn: TESSERA_ONLY,
    unseeded: NO_ORGANIZATIONS,
    seed: async ({ baseUrl, users, email, notes }) => {
      const organizations = await seedOrganizations(baseUrl, users, email)
      notes.push(`organization members added by ${organizations.membersAddedBy}`)
      return organizations
    },
    scenarios: (organizations, { timing }) => organizationScenarios(organizations, timing),
  }),
  // Issue 14: list-users over a 100,000-user directory, written straight into PostgreSQL's read
  // model; PGlite belongs to the server process, so there it is skipped.
  group({
    runsOn: TESSERA_ONLY,
    unseeded: UNSEEDED_DIRECTORY,
    seed: async ({ databaseUrl, notes }) => {
      if (!databaseUrl) return NO_DIRECTORY
      const started = Date.now()
      const directory = await seedAdminDirectory(databaseUrl)
      notes.push(
        `admin directory: ${directory.size} users written in ${Math.round((Date.now() - started) / 1000)} s`,
      )
      return directory
    },
    scenarios: (directory, { timing }) => adminDirectoryScenarios(directory, timing),
  }),
  // Issues 33 to 36: the feature plugins on both servers (bench/features-config.ts).
  ...featureGroups,
  // Issue 33's remaining figures: a whole passkey sign-in, verify-totp alone (bench/factor-figures.ts).
  ...factorFigureGroups,
]

const assertSomethingChosen = (only: readonly string[]) => {
  const unmatched = unmatchedEntries(SCENARIO_GROUPS, only)
  if (unmatched.length > 0) {
    const groups = SCENARIO_GROUPS.flatMap((g) => g.group ?? [])
    const all = SCENARIO_GROUPS.flatMap((g) => g.names)
    throw new Error(
      `BENCH_ONLY's ${unmatched.join(', ')} match no scenario; the groups are ${groups.join(', ')}, ` +
        `the scenarios ${all.map(slug).join(', ')}`,
    )
  }
}

const chosenGroups = (only: readonly string[]) =>
  SCENARIO_GROUPS.filter((g) => chosenNames(g, only).length > 0)

/** The users to sign up first: all of BENCH_USERS unless every chosen group needs fewer. */
const usersToSeed = (settings: Settings): number =>
  Math.min(
    settings.users,
    Math.max(1, ...chosenGroups(settings.only).map((g) => g.usersNeeded ?? settings.users)),
  )

/** The feature plugins are on when a chosen group needs them (bench/features-config.ts). */
const featuresWanted = (settings: Settings) => chosenGroups(settings.only).some((g) => g.needsFeatures)

/** A server under test on one database: its seeded users, and its figures as they come. */
type Contender = {
  label: ServerLabel
  server: RunningServer
  /** The users signed up first (BENCH_USERS, or fewer when the chosen groups need fewer). */
  users: BenchUser[]
  email: ReturnType<typeof emailFactory>
  seedSeconds: number
  seedPeakRssBytes: number
  probe: CpuProbe
  results: MeasuredScenario[]
  notes: string[]
}

const benchScenario = async (
  contender: Contender,
  spec: ScenarioSpec,
  everyone: readonly Contender[],
  statementsUrl: string | undefined,
): Promise<MeasuredScenario> => {
  const { server } = contender
  // Work left from the previous scenario's dropped requests, on either server, must not eat into
  // this one.
  for (const other of everyone) await waitUntilIdle(other.server.pid)
  const cpu: { stop?: () => CpuUse; use?: CpuUse } = {}
  // Tessera's own event-loop and GC figures, scraped as the window starts and as it ends.
  const scrapes: { start?: ReturnType<typeof scrapeRuntime>; end?: ReturnType<typeof scrapeRuntime> } = {}
  const scrape = () => (contender.label === 'Tessera' ? scrapeRuntime(server.baseUrl) : Promise.resolve(null))
  // BENCH_STATEMENTS=1: the database's statements inside the window (bench/scenario-statements.ts).
  const statements: { reset?: Promise<void>; read?: Promise<Awaited<ReturnType<typeof readStatements>>> } = {}
  const window = {
    onStart: () => {
      cpu.stop = measureCpu(contender.probe, cpus().length)
      scrapes.start = scrape()
      if (statementsUrl) statements.reset = resetStatements(statementsUrl)
    },
    onEnd: () => {
      cpu.use = cpu.stop?.()
      scrapes.end = scrape()
      if (statementsUrl)
        statements.read = (statements.reset ?? Promise.resolve()).then(() => readStatements(statementsUrl))
    },
  }
  const measured =
    'run' in spec
      ? await spec.run(server.baseUrl, window)
      : 'arrivals' in spec
        ? await runOpenLoop(server.baseUrl, spec, window)
        : await runScenario(server.baseUrl, spec, window)
  server.assertAlive()
  if (!cpu.use) throw new Error(`${spec.name}: the measured window never ended`)
  const [start, end] = await Promise.all([scrapes.start, scrapes.end])
  if (statements.read) {
    const answers = Object.values(measured.byKind).reduce((sum, kind) => sum + (kind?.requests ?? 0), 0)
    console.log(`\n${formatStatements(await statements.read, answers).join('\n')}`)
  }
  return {
    ...measured,
    cpu: cpu.use,
    peakRssBytes: server.peakRss(),
    ...(start && end ? { runtime: runtimeBetween(start, end) } : {}),
  }
}

type PostgresTarget = { url: string; pid(): number | undefined }

const startFor = (label: ServerLabel, settings: Settings, postgres: PostgresTarget | undefined) => {
  const features = featuresWanted(settings)
  return label === 'Tessera'
    ? startServer({
        ...(postgres ? { databaseUrl: postgres.url } : {}),
        nodeArgs: settings.nodeArgs,
        features,
      })
    : startBetterAuth({ ...(postgres ? { postgresUrl: postgres.url } : {}), features })
}

/** Starts the server and signs up its users; it keeps running until `stop`. */
const openContender = async (
  label: ServerLabel,
  database: DatabaseLabel,
  settings: Settings,
  postgres: PostgresTarget | undefined,
): Promise<Contender> => {
  console.log(`\n${label} on ${database}: starting…`)
  const server: RunningServer = await guarded(await startFor(label, settings, postgres))
  try {
    const email = emailFactory()
    const count = usersToSeed(settings)
    console.log(`  listening on ${server.baseUrl} (pid ${server.pid}); seeding ${count} users…`)
    const seedStarted = Date.now()
    const users = await seedUsers(server.baseUrl, {
      count,
      concurrency: SEED_CONCURRENCY,
      email: (n) => email('user', n),
    })
    return {
      label,
      server,
      users,
      email,
      seedSeconds: (Date.now() - seedStarted) / 1000,
      seedPeakRssBytes: server.peakRss(),
      probe: { serverPid: server.pid, databasePid: () => postgres?.pid() },
      results: [],
      notes: [],
    }
  } catch (error) {
    await server.stop()
    throw error
  }
}

const resultOf = (contender: Contender, database: DatabaseLabel): RunResult => ({
  server: contender.label,
  database,
  users: contender.users.length,
  seedSeconds: contender.seedSeconds,
  seedPeakRssBytes: contender.seedPeakRssBytes,
  scenarios: contender.results,
  peakRssBytes: contender.server.peakRss(),
  notes: contender.notes,
})

const specRounds = (spec: ScenarioSpec | undefined): number =>
  spec === undefined ? 0 : 'rounds' in spec ? (spec.rounds ?? 1) : 1

const summaryOf = (result: MeasuredScenario): string =>
  Object.entries(result.byKind)
    .map(
      ([kind, s]) =>
        `${kind} ${s.perSecond >= 100 ? Math.round(s.perSecond) : s.perSecond.toFixed(1)}/s p99 ${Number.isNaN(s.p99Ms) ? '—' : s.p99Ms.toFixed(1)} ms` +
        (s.non2xx + s.incorrect > 0 ? ` (${s.non2xx + s.incorrect} wrong)` : ''),
    )
    .join(', ')

/**
 * Runs each chosen scenario on every server it is meant for, one server right after the other
 * (which one goes first alternates), so that a machine whose speed drifts over minutes (a shared
 * one's does, by a fifth between runs) skews both alike; a scenario with several `rounds` does so
 * window by window, and each server's windows are merged (bench/rounds.ts). Answers the servers
 * that failed, by label.
 */
const runScenarios = async (
  contenders: readonly Contender[],
  settings: Settings,
  postgres: PostgresTarget | undefined,
): Promise<Map<ServerLabel, string>> => {
  const failed = new Map<ServerLabel, string>()
  const statementsUrl = settings.statements ? postgres?.url : undefined
  // better-auth failing leaves Tessera's figures standing; Tessera failing ends the run.
  const attempt = async (contender: Contender, step: () => Promise<void>) => {
    if (failed.has(contender.label)) return
    try {
      await step()
    } catch (error) {
      if (contender.label === 'Tessera') throw error
      const reason = error instanceof Error ? error.message : String(error)
      console.error(`\n${contender.label} failed: ${reason}`)
      failed.set(contender.label, reason)
    }
  }
  const timing = { durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds }
  let turn = 0
  for (const scenarioGroup of SCENARIO_GROUPS) {
    const names = chosenNames(scenarioGroup, settings.only)
    if (names.length === 0) continue
    const specs = new Map<Contender, ScenarioSpec[]>()
    for (const contender of contenders.filter((c) => scenarioGroup.runsOn.includes(c.label)))
      await attempt(contender, async () => {
        const { server, users, email, notes } = contender
        const database = postgres ? { databaseUrl: postgres.url } : {}
        specs.set(
          contender,
          await scenarioGroup.prepare({
            baseUrl: server.baseUrl,
            users,
            email,
            timing,
            notes,
            mixedOpen: settings.mixedOpen,
            ...database,
          }),
        )
      })
    for (const name of names) {
      const specOf = (contender: Contender) => specs.get(contender)?.find((s) => s.name === name)
      const rounds = Math.max(1, ...[...specs.keys()].map((c) => specRounds(specOf(c))))
      const measured = new Map<Contender, MeasuredScenario[]>()
      for (let round = 0; round < rounds; round++) {
        const order = [...specs.keys()]
        if (turn++ % 2 === 1) order.reverse()
        for (const contender of order) {
          const spec = specOf(contender)
          if (!spec || round >= specRounds(spec)) continue
          await attempt(contender, async () => {
            const label = contender.label === 'Tessera' ? '' : ` (${contender.label})`
            const of = rounds > 1 ? ` (window ${round + 1} of ${rounds})` : ''
            process.stdout.write(
              `  ${spec.name}${label}${of}: ${spec.warmupSeconds} s warm-up + ${spec.durationSeconds} s… `,
            )
            const result = await benchScenario(contender, spec, contenders, statementsUrl)
            console.log(summaryOf(result) || 'no responses')
            measured.set(contender, [...(measured.get(contender) ?? []), result])
          })
        }
      }
      for (const [contender, results] of measured) {
        if (failed.has(contender.label)) continue
        const merged = mergeRounds(results)
        if (results.length > 1)
          console.log(`  ${name} (${contender.label}, ${results.length} windows): ${summaryOf(merged)}`)
        contender.results.push(merged)
      }
      const [tessera, betterAuth] = (['Tessera', 'better-auth'] as const).map(
        (label) => [...measured].find(([contender]) => contender.label === label)?.[1] ?? [],
      )
      if (tessera && betterAuth && Math.min(tessera.length, betterAuth.length) > 1)
        for (const [kind, ratios] of Object.entries(windowRatios(tessera, betterAuth)))
          console.log(
            `  ${name}, ${kind} ÷ better-auth window by window: ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
          )
    }
  }
  return failed
}

/** Tessera and better-auth on one database, both running, scenario by scenario. */
const benchDatabase = async (
  database: DatabaseLabel,
  settings: Settings,
  postgres?: PostgresTarget,
): Promise<DatabaseRuns> => {
  const sharedChosen = chosenGroups(settings.only).some((g) => g.runsOn.includes('better-auth'))
  const skipped = !settings.betterAuth
    ? 'BENCH_BETTER_AUTH=0'
    : !sharedChosen
      ? 'BENCH_ONLY picks no shared scenario'
      : null
  const tessera = await openContender('Tessera', database, settings, postgres)
  const contenders = [tessera]
  try {
    let betterAuthFailure: string | null = null
    if (!skipped)
      try {
        contenders.push(await openContender('better-auth', database, settings, postgres))
      } catch (error) {
        betterAuthFailure = error instanceof Error ? error.message : String(error)
        console.error(`\nbetter-auth on ${database} failed: ${betterAuthFailure}`)
      }
    const failed = await runScenarios(contenders, settings, postgres)
    betterAuthFailure ??= failed.get('better-auth') ?? null
    const betterAuth = contenders.find((c) => c.label === 'better-auth')
    const runs: DatabaseRuns = {
      database,
      tessera: resultOf(tessera, database),
      betterAuth: betterAuth && !betterAuthFailure ? resultOf(betterAuth, database) : null,
    }
    // Tessera's figures are kept; the run still ends non-zero (see main).
    if (betterAuthFailure)
      return { ...runs, betterAuthSkipped: `FAILED: ${betterAuthFailure.split('\n', 1)[0]}` }
    return skipped ? { ...runs, betterAuthSkipped: skipped } : runs
  } finally {
    for (const contender of contenders) await contender.server.stop()
  }
}

const postgresTarget = async (settings: Settings): Promise<PostgresTarget | undefined> => {
  // An external server's processes cannot be told apart from others': its CPU counts as "other".
  if (settings.databaseUrl) return { url: settings.databaseUrl, pid: () => undefined }
  if (!settings.embeddedPostgres) return undefined
  console.log('\nStarting an embedded PostgreSQL…')
  const embedded: EmbeddedServer = await guarded(
    await startEmbeddedPostgres(settings.statements ? { postgresFlags: statementsFlags } : {}),
  )
  return embedded
}

const main = async () => {
  // The cost of the log (issue 31): a group of its own, run alone (bench/replay.ts).
  if (replayBenchRequested(process.env)) return runReplayBench(process.env)
  const read = readSettings(process.env)
  // A typo in BENCH_ONLY should fail now, not after a minute of seeding.
  assertSomethingChosen(read.only)
  const passwordChecksPerSecond = await measurePasswordChecksPerSecond()
  const settings: Settings = { ...read, mixedOpen: mixedOpenRates(passwordChecksPerSecond) }
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryMb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
  }
  console.log(
    `Tessera benchmark — ${machine.cpus} × ${machine.cpu}, node ${machine.node}; ` +
      `${settings.users} users, ${settings.durationSeconds} s per scenario after ${settings.warmupSeconds} s warm-up` +
      (settings.betterAuth ? '; better-auth 1.7.5 beside it' : ''),
  )
  console.log(
    `Password checks on this machine: ${passwordChecksPerSecond.toFixed(1)}/s; ${MIXED_OPEN} offers ` +
      `get-session ${settings.mixedOpen.getSession}/s and sign-in ${settings.mixedOpen.signIn}/s`,
  )
  const runs: DatabaseRuns[] = []
  if (settings.pglite) runs.push(await benchDatabase('PGlite', settings))
  const postgres = await postgresTarget(settings)
  if (postgres) runs.push(await benchDatabase('PostgreSQL', settings, postgres))
  else console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL, or BENCH_EMBEDDED_POSTGRES=1.)')
  await cleanUp()

  for (const run of runs) {
    console.log(`\n${formatRun(run.tessera)}`)
    if (run.betterAuth) console.log(`\n${formatRun(run.betterAuth)}`)
    console.log(`\n${formatComparison(run)}`)
    console.log(`\n${formatTargets(run)}`)
  }
  await mkdir(dirname(settings.resultsFile), { recursive: true })
  const json = {
    at: new Date().toISOString(),
    machine,
    settings: {
      users: settings.users,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
      only: settings.only,
      passwordChecksPerSecond,
      mixedOpen: settings.mixedOpen,
    },
    databases: runs.map((run) => ({ ...run, targets: checkTargets(run) })),
  }
  await writeFile(settings.resultsFile, `${JSON.stringify(json, null, 2)}\n`)
  console.log(`\nWritten to ${settings.resultsFile}`)
  if (runs.some((run) => run.betterAuthSkipped?.startsWith('FAILED'))) process.exitCode = 1
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
