/// `node dist/bench/oauth-costs.js`: what one request of each OAuth scenario (bench/oauth.ts) costs
/// Tessera and better-auth on PostgreSQL, counted rather than timed, so that a machine shared with
/// other work moves the figures little: the statements the database ran (pg_stat_statements, the
/// server's background work in the window included), and the CPU milliseconds of the server and of
/// the database's processes. `OAUTH_COSTS_REQUESTS` requests of each scenario (300) go after a
/// warm-up, `OAUTH_COSTS_CONCURRENCY` at a time (1: a request alone; 16, as the bench sends them,
/// lets the projector apply several answers' events in one batch), on a throwaway embedded
/// PostgreSQL with the statistics extension loaded; both servers are seeded as the `oauth` group
/// seeds them (`BENCH_OAUTH_CODES` defaults to what the run uses). `OAUTH_COSTS_SERVERS=Tessera`
/// measures Tessera alone. With `OAUTH_COSTS_CPU_PROF_DIR` set, Tessera writes a V8 CPU profile
/// there when it stops (`--cpu-prof`), and each scenario prints its span (`span <scenario> µs <from>
/// <to>`) on the profile's clock, for bench/cpu-profile.ts to read the profile scenario by scenario;
/// profiling adds to the CPU counted, so read such a run's CPU only as shares. Each scenario also
/// prints Tessera's garbage collections in its window (GET /metrics): pauses per 1,000 answers and
/// their milliseconds per answer. `OAUTH_COSTS_ONLY` (e.g. `introspect,refresh`) measures only the
/// scenarios whose names hold one of its words. `BENCH_NODE_ARGS` adds node flags to Tessera's, and
/// `BENCH_PERF_DIR` records each scenario's window with Linux perf (bench/perf-record.ts);
/// `OAUTH_COSTS_WARM_UP` sets the requests sent before each window.

import { cpus } from 'node:os'
import pg from 'pg'
import { betterAuthDatabaseUrl, startBetterAuth } from './better-auth.js'
import { measureCpu, waitUntilIdle } from './cpu.js'
import { startEmbeddedPostgres } from './embedded-postgres.js'
import type { Shot } from './load.js'
import { oauthScenarios, seedOAuth } from './oauth.js'
import { extraNodeArgs, perfRecord } from './perf-record.js'
import type { ServerLabel } from './report.js'
import { runtimeBetween, scrapeRuntime } from './runtime-window.js'
import { statementsFlags } from './scenario-statements.js'
import { emailFactory, seedUsers } from './seed.js'
import { type RunningServer, startServer } from './server.js'

/** Requests before each window (30): V8 was still compiling the exchange's hot code well after them. */
const warmUp = (): number => Number(process.env.OAUTH_COSTS_WARM_UP ?? 30)
const TOP_STATEMENTS = Number(process.env.OAUTH_COSTS_TOP_STATEMENTS ?? 6)

const requests = (): number => Number(process.env.OAUTH_COSTS_REQUESTS ?? 300)
/** Requests in flight at once: 1 counts a request alone; the bench's 16 lets the projector batch. */
const concurrency = (): number => Number(process.env.OAUTH_COSTS_CONCURRENCY ?? 1)
const profileDir = (): string | undefined => process.env.OAUTH_COSTS_CPU_PROF_DIR
const chosen = (name: string): boolean => {
  const words = process.env.OAUTH_COSTS_ONLY?.split(',').filter(Boolean) ?? []
  return words.length === 0 || words.some((word) => name.includes(word))
}

/** How long each answer of the current window took, in ms (for its p50 and p99: noisy, as any timing here). */
let latencies: number[] = []
const percentile = (sorted: readonly number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0

const send = async (baseUrl: string, shot: Shot): Promise<boolean> => {
  const sent = performance.now()
  const response = await fetch(`${baseUrl}${shot.path}`, {
    method: shot.method,
    headers: shot.headers,
    ...(shot.body === undefined ? {} : { body: shot.body }),
  })
  const body = await response.text()
  latencies.push(performance.now() - sent)
  return response.ok && shot.isCorrect(body, Object.fromEntries(response.headers))
}

/** `count` requests over `concurrency()` connections, each sending its next once answered; how many were wrong. */
const sendAll = async (baseUrl: string, next: () => Shot, count: number): Promise<number> => {
  let left = count
  let wrong = 0
  const connection = async () => {
    for (; left > 0; left -= 1) if (!(await send(baseUrl, next()))) wrong += 1
  }
  await Promise.all(Array.from({ length: concurrency() }, connection))
  return wrong
}

type Statements = { total: number; top: { calls: number; query: string }[] }

const statementsOf = async (client: pg.Client, database: string): Promise<Statements> => {
  const { rows } = await client.query<{ calls: string; query: string }>(
    `select calls::text, query from pg_stat_statements s join pg_database d on d.oid = s.dbid
     where d.datname = $1 and query not like '%pg_stat_statements%' order by s.calls desc`,
    [database],
  )
  const total = rows.reduce((sum, row) => sum + Number(row.calls), 0)
  const top = rows.slice(0, TOP_STATEMENTS).map((row) => ({ calls: Number(row.calls), query: row.query }))
  return { total, top }
}

const oneLine = (query: string) => query.replace(/\s+/g, ' ').slice(0, 110)

/** Each scenario's requests one at a time; its statements and CPU per request. */
const measure = async (
  label: ServerLabel,
  server: RunningServer,
  admin: pg.Client,
  database: string,
  postgresPid: () => number | undefined,
) => {
  const email = emailFactory()
  const users = await seedUsers(server.baseUrl, { count: 1, concurrency: 1, email: (n) => email('user', n) })
  const notes: string[] = []
  const timing = { durationSeconds: 0, warmupSeconds: 0 }
  const setup = await seedOAuth({
    baseUrl: server.baseUrl,
    users,
    email,
    timing,
    notes,
    mixedOpen: { getSession: 0, signIn: 0 },
  })
  console.log(`\n${label}: ${notes.join('; ')}`)
  for (const spec of oauthScenarios(setup, timing)) {
    if (!('next' in spec) || !chosen(spec.name)) continue
    await sendAll(server.baseUrl, spec.next, warmUp())
    await waitUntilIdle(server.pid)
    await admin.query('select pg_stat_statements_reset()')
    const started = performance.now()
    const startedUs = process.hrtime.bigint() / 1000n
    const runtimeBefore = await scrapeRuntime(server.baseUrl).catch(() => null)
    const perf = label === 'Tessera' ? perfRecord(server.pid, spec.name.replace(/\W+/g, '-')) : null
    const stop = measureCpu({ serverPid: server.pid, databasePid: postgresPid }, cpus().length)
    latencies = []
    const sending = performance.now()
    const wrong = await sendAll(server.baseUrl, spec.next, requests())
    const rate = requests() / ((performance.now() - sending) / 1000)
    const sorted = latencies.toSorted((a, b) => a - b)
    // What the requests set going (the projector, for Tessera) belongs to their cost.
    await waitUntilIdle(server.pid)
    const cpu = stop()
    await perf?.stop()
    const runtimeAfter = runtimeBefore ? await scrapeRuntime(server.baseUrl).catch(() => null) : null
    // The same monotonic clock as the profile's timestamps.
    if (profileDir()) console.log(`  span ${spec.name} µs ${startedUs} ${process.hrtime.bigint() / 1000n}`)
    const seconds = (performance.now() - started) / 1000
    const statements = await statementsOf(admin, database)
    const perRequest = (cores: number) => ((cores * seconds * 1000) / requests()).toFixed(2)
    console.log(
      `  ${spec.name} (c${concurrency()}): ${(statements.total / requests()).toFixed(2)} statements/request; CPU ms/request ` +
        `server ${perRequest(cpu.server)} (event loop ${perRequest(cpu.serverEventLoop)}), ` +
        `database ${perRequest(cpu.database)}${wrong > 0 ? `; ${wrong} WRONG` : ''}`,
    )
    console.log(
      `      ${rate.toFixed(0)} answers/s, p50 ${percentile(sorted, 0.5).toFixed(2)} ms, ` +
        `p99 ${percentile(sorted, 0.99).toFixed(2)} ms (timings: as loaded as the machine is)`,
    )
    if (runtimeBefore && runtimeAfter) {
      const { gcPauses, gcPauseMs, gcPausesOver10ms } = runtimeBetween(runtimeBefore, runtimeAfter)
      console.log(
        `      GC ${((gcPauses * 1000) / requests()).toFixed(1)} pauses per 1,000 answers, ` +
          `${(gcPauseMs / requests()).toFixed(3)} ms per answer, ${gcPausesOver10ms} over 10 ms`,
      )
    }
    for (const { calls, query } of statements.top)
      console.log(`      ${(calls / requests()).toFixed(2)} × ${oneLine(query)}`)
  }
}

const main = async () => {
  process.env.BENCH_OAUTH_CODES ??= String(warmUp() + requests() + 70)
  const servers = (process.env.OAUTH_COSTS_SERVERS ?? 'Tessera,better-auth').split(',')
  const postgres = await startEmbeddedPostgres({
    postgresFlags: statementsFlags,
  })
  const admin = new pg.Client({ connectionString: postgres.url })
  try {
    await admin.connect()
    await admin.query('create extension if not exists pg_stat_statements')
    if (servers.includes('Tessera')) {
      const dir = profileDir()
      const nodeArgs = [...(dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), ...extraNodeArgs()]
      const tessera = await startServer({ databaseUrl: postgres.url, nodeArgs, features: true })
      await measure('Tessera', tessera, admin, 'postgres', postgres.pid).finally(() => tessera.stop())
    }
    if (servers.includes('better-auth')) {
      const betterAuth = await startBetterAuth({ postgresUrl: postgres.url, features: true })
      const database = new URL(betterAuthDatabaseUrl(postgres.url)).pathname.slice(1)
      await measure('better-auth', betterAuth, admin, database, postgres.pid).finally(() => betterAuth.stop())
    }
  } finally {
    await admin.end().catch(() => {})
    await postgres.stop()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exit(1)
})
