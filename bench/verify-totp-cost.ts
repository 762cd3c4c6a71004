/// What one `verify-totp` answer costs Tessera (issue 33), counted rather than timed, so that a
/// machine shared with other work moves the figures little: `node dist/bench/verify-totp-cost.js
/// [answers] [rounds]` (after `npm run build`; 2,000 and 2). A throwaway embedded PostgreSQL with
/// `pg_stat_statements` loaded and a Tessera server as the bench runs it; people with TOTP on and a
/// sign-in waiting are written in as the `verify-totp` group writes them
/// (bench/factor-figures-totp-tessera.ts), then each round sends `answers` second steps at c16, as
/// `verify-totp alone c16` does, and waits until the server is idle (the projector's work belongs to
/// the answers). Printed per round and per answer: CPU milliseconds of the server (and of its main
/// thread) and of the database's processes, statements and their execution milliseconds, GC pauses
/// (in all and by kind), then the statements that ran most. With `BENCH_CPU_PROF_DIR` set, the server writes a V8 CPU
/// profile there when it stops (`--cpu-prof`), and each round prints its span on the profile's clock
/// (`round µs <from> <to>`); profiling adds CPU of its own, so read such a run's figures as shares.
/// The server runs with bench/count-decryptions.ts preloaded: each round prints the AES decryptions
/// (opened sealed fields) per answer too. `BENCH_TOP_STATEMENTS=<n>` prints n statements (8 unless
/// told; `BENCH_TOP_BY=plans` prints those planned most); `BENCH_EXPLAIN=1` ends with the plan of a
/// second step's stream read as executed on the seeded data (EXPLAIN ANALYZE, BUFFERS).

import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { coalescedReadText } from '../infra/event-store/sql-event-rows.js'
import { measureCpu, waitUntilIdle } from './cpu.js'
import { startEmbeddedPostgres } from './embedded-postgres.js'
import { afterStep, type SecondStepPerson, type SeededSecondSteps } from './factor-figures-totp.js'
import { seedTesseraSecondSteps } from './factor-figures-totp-tessera.js'
import { childrenOf, extraNodeArgs, perfRecord } from './perf-record.js'
import { type GcKindWindow, gcPausesByKind, runtimeBetween, scrapeRuntime } from './runtime-window.js'
import { statementsFlags } from './scenario-statements.js'
import { startServer } from './server.js'
import { secretOf } from './server-secrets.js'
import { hotp, timeStep } from './totp.js'

const [answers = 2000, rounds = 2] = process.argv.slice(2).map(Number)
const WARM_UP = 500
const CONNECTIONS = 16
const TOP_STATEMENTS = Number(process.env.BENCH_TOP_STATEMENTS ?? 8)
// `BENCH_TOP_BY=plans`: the statements planned most first, rather than those run most.
const ORDER_BY = process.env.BENCH_TOP_BY === 'plans' ? 'pg_stat_statements.plans' : 'calls'

type Statement = { calls: number; ms: number; plans: number; planMs: number; query: string }

const COUNTER = fileURLToPath(new URL('./count-decryptions.js', import.meta.url))

/** The server's decryptions so far: its preload writes them to `file` when signalled. */
const decryptions = async (pid: number, file: string): Promise<number> => {
  await rm(file, { force: true })
  process.kill(pid, 'SIGUSR2')
  for (let waited = 0; waited < 5_000; waited += 20) {
    const text = await readFile(file, 'utf8').catch(() => '')
    if (text !== '') return Number(text)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('the server did not write its decryptions count')
}

const statements = async (admin: pg.Client): Promise<Statement[]> => {
  const { rows } = await admin.query<{
    n: string
    ms: number
    plans: string
    plan_ms: number
    query: string
  }>(
    `select calls::text as n, total_exec_time as ms, plans::text, total_plan_time as plan_ms, query
     from pg_stat_statements where query not like '%pg_stat_statements%' order by ${ORDER_BY} desc`,
  )
  return rows.map((row) => ({
    calls: Number(row.n),
    ms: row.ms,
    plans: Number(row.plans),
    planMs: row.plan_ms,
    query: row.query,
  }))
}

/** `count` second steps at c16, each person once; answers how many were not a session for them. */
const verifyMany = async (baseUrl: string, key: Buffer, people: SecondStepPerson[], count: number) => {
  let wrong = 0
  const connection = async () => {
    for (let person = people.shift(); person && count-- > 0; person = people.shift()) {
      const answer = await fetch(`${baseUrl}/api/auth/two-factor/verify-totp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl, cookie: person.cookie },
        body: JSON.stringify({ code: hotp(key, timeStep(Date.now())) }),
      })
      const body = await answer.text()
      if (!answer.ok || !body.includes(person.userId)) {
        if (wrong === 0) console.log(`  first wrong answer: ${answer.status} ${body.slice(0, 200)}`)
        wrong += 1
      }
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, connection))
  return wrong
}

/** Each kind of collection's pauses in the round, how long each took, and its milliseconds per answer. */
const describeGcByKind = (kinds: readonly GcKindWindow[], per: (value: number) => string) =>
  kinds
    .map(({ kind, pauses, ms }) => {
      const each = pauses > 0 ? (ms / pauses).toFixed(1) : 0
      return `${kind} ${pauses} (${each} ms each), ${per(ms)} ms an answer`
    })
    .join('; ')

const oneLine = (query: string) => query.replace(/\s+/g, ' ').slice(0, 120)

const round = async (
  context: {
    baseUrl: string
    pid: number
    postgresPid: () => number | undefined
    admin: pg.Client
    decryptionsFile: string
  },
  seeded: SeededSecondSteps,
) => {
  const { baseUrl, pid, postgresPid, admin, decryptionsFile } = context
  await waitUntilIdle(pid)
  await admin.query('select pg_stat_statements_reset()')
  const decryptionsBefore = await decryptions(pid, decryptionsFile)
  const runtimeBefore = await scrapeRuntime(baseUrl)
  const startedUs = process.hrtime.bigint() / 1000n
  const perf = perfRecord(pid)
  // `BENCH_PERF_POSTGRES=1`: the database's processes too, into a file of their own.
  const postmaster = process.env.BENCH_PERF_POSTGRES === '1' ? postgresPid() : undefined
  const perfPostgres = postmaster ? perfRecord(postmaster, 'postgres', childrenOf(postmaster)) : null
  const stop = measureCpu({ serverPid: pid, databasePid: postgresPid }, cpus().length)
  const started = performance.now()
  const wrong = await verifyMany(baseUrl, seeded.key, seeded.people, answers)
  await waitUntilIdle(pid)
  const cpu = stop()
  await perf?.stop()
  await perfPostgres?.stop()
  const seconds = (performance.now() - started) / 1000
  if (process.env.BENCH_CPU_PROF_DIR) console.log(`round µs ${startedUs} ${process.hrtime.bigint() / 1000n}`)
  const runtimeAfter = await scrapeRuntime(baseUrl)
  const decrypted = (await decryptions(pid, decryptionsFile)) - decryptionsBefore
  const ran = await statements(admin)
  const per = (value: number) => (value / answers).toFixed(2)
  const ms = (cores: number) => per(cores * seconds * 1000)
  const gc = runtimeBefore && runtimeAfter ? runtimeBetween(runtimeBefore, runtimeAfter) : null
  console.log(
    `${answers} answers${wrong > 0 ? ` (${wrong} WRONG)` : ''}; per answer: CPU ms server ${ms(cpu.server)} ` +
      `(main thread ${ms(cpu.serverEventLoop)}), database ${ms(cpu.database)}; ` +
      `${per(ran.reduce((sum, s) => sum + s.calls, 0))} statements, ${per(ran.reduce((sum, s) => sum + s.ms, 0))} ms executing, ` +
      `${per(ran.reduce((sum, s) => sum + s.plans, 0))} plans, ${per(ran.reduce((sum, s) => sum + s.planMs, 0))} ms planning; ` +
      `${per(decrypted)} decryptions` +
      (gc ? `; GC ${per(gc.gcPauses)} pauses, ${per(gc.gcPauseMs)} ms` : ''),
  )
  if (runtimeBefore && runtimeAfter)
    console.log(`    GC by kind: ${describeGcByKind(gcPausesByKind(runtimeBefore, runtimeAfter), per)}`)
  for (const { calls, ms: total, plans, planMs, query } of ran.slice(0, TOP_STATEMENTS)) {
    const planning = `${per(plans)} plans, ${per(planMs)} ms`
    console.log(`    ${per(calls)} × ${per(total)} ms (${planning})  ${oneLine(query)}`)
  }
}

/**
 * `BENCH_EXPLAIN=1`: the plan of a second step's stream read (the keyed form the server sends, for
 * one person's two-factor stream and one session stream), as executed on the seeded data.
 */
const explainStreamRead = async (admin: pg.Client, userId: string | undefined) => {
  if (!userId) return
  const { rows: streams } = await admin.query<{ stream_id: string }>(
    `select stream_id from tessera_events where data->>'userId' = $1 group by stream_id order by stream_id`,
    [userId],
  )
  const wanted = streams.map((row) => row.stream_id)
  const { rows } = await admin.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers) ${coalescedReadText(true)}`,
    [wanted, wanted.map(() => 0)],
  )
  console.log(`explain (${wanted.join(', ')}):`)
  for (const row of rows) console.log(`    ${row['QUERY PLAN']}`)
}

const main = async () => {
  const postgres = await startEmbeddedPostgres({
    // Planning counted apart from execution: a statement planned on every call shows it.
    postgresFlags: [...statementsFlags, '-c', 'pg_stat_statements.track_planning=on'],
  })
  const admin = new pg.Client({ connectionString: postgres.url })
  const profileDir = process.env.BENCH_CPU_PROF_DIR
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const extraArgs = extraNodeArgs()
  const nodeArgs = [...profiling, '--import', COUNTER, ...extraArgs]
  const decryptionsFile = join(await mkdtemp(join(tmpdir(), 'totp-cost-')), 'decryptions')
  process.env.BENCH_DECRYPTIONS_FILE = decryptionsFile
  try {
    await admin.connect()
    await admin.query('create extension if not exists pg_stat_statements')
    const server = await startServer({ databaseUrl: postgres.url, features: true, nodeArgs })
    try {
      const { secret } = secretOf(server.baseUrl)
      const count = WARM_UP + answers * rounds
      const email = `totp-cost-${process.pid}@example.test`
      const seeded = await seedTesseraSecondSteps(server.baseUrl, postgres.url, secret, count, email)
      await afterStep(seeded.lastStep)
      await verifyMany(server.baseUrl, seeded.key, seeded.people, WARM_UP)
      const context = {
        baseUrl: server.baseUrl,
        pid: server.pid,
        postgresPid: postgres.pid,
        admin,
        decryptionsFile,
      }
      const answered = seeded.people.at(-1)?.userId
      for (let n = 0; n < rounds; n++) await round(context, seeded)
      if (process.env.BENCH_EXPLAIN === '1') await explainStreamRead(admin, answered)
    } finally {
      await server.stop()
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
