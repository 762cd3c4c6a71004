/// What one webhook delivery costs the server, counted rather than timed (issue 34), so a machine
/// shared with other work moves it little: `node dist/bench/webhook-cost.js [endpoints] [sign-ups]
/// [rounds]` (after `npm run build`; 8, 40, 2). A throwaway embedded PostgreSQL and a Tessera server
/// as the bench runs it, with bench/query-counter.ts loaded. Phases of `sign-ups` sign-ups at c4 run
/// without endpoints (A) and with `endpoints` on the bench's receiver (B), in the order A B, B A…;
/// each B phase waits until every delivery arrived. Printed per phase: the server's main-thread CPU
/// milliseconds (from /proc: the event loop, where deliveries run; the password workers left out)
/// and its statements per sign-up; then B less A per sign-up and per delivered event (each sign-up
/// makes `user.created` and `session.created`, two events for every endpoint). With
/// `BENCH_CPU_PROF_DIR` set, the server writes a V8 CPU profile there when it stops (`--cpu-prof`).
/// The database's side too: its processes' CPU milliseconds, and from pg_stat_statements (preloaded)
/// its statements' execution milliseconds and shared buffers (hit, read, dirtied) per sign-up, B less
/// A for the statements that moved most.

import { readFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import { measureCpu } from './cpu.js'
import { startEmbeddedPostgres } from './embedded-postgres.js'
import { statementsFlags } from './scenario-statements.js'
import { signUpBody } from './seed.js'
import { startServer } from './server.js'
import { createEndpoints, startReceiver } from './webhook-receiver.js'

const [endpoints = 8, signUps = 40, rounds = 2] = process.argv.slice(2).map(Number)
const counts = join(tmpdir(), `tessera-webhook-cost-${process.pid}.jsonl`)
process.env.BENCH_QUERY_COUNT_FILE = counts
const counter = new URL('./query-counter.js', import.meta.url).pathname

type Snapshot = { queries: number; shapes: Record<string, number> }
type Phase = {
  withEndpoints: boolean
  mainMs: number
  serverMs: number
  databaseMs: number
  harnessMs: number
  statements: number
  shapes: Map<string, number>
  executed: Map<string, Executed>
  delivered: string
  /** Sign-ups a second while they ran: what is counted by time (runs, polls) is more per sign-up at fewer. */
  rate: number
}
type Executed = { calls: number; ms: number; buffers: number; dirtied: number }

const lastSnapshot = (): Snapshot =>
  JSON.parse(readFileSync(counts, 'utf8').trim().split('\n').at(-1) ?? '{}')

/** The main thread's CPU milliseconds (utime + stime, in 10 ms ticks). */
const mainThreadMs = (pid: number): number => {
  const fields = (readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const postgres = await startEmbeddedPostgres({
  postgresFlags: statementsFlags,
})
const admin = new pg.Client({ connectionString: postgres.url })
await admin.connect()
await admin.query('create extension if not exists pg_stat_statements')

/** What the database ran since the last reset, by statement (values left out). */
const executedSinceReset = async (): Promise<Map<string, Executed>> => {
  const { rows } = await admin.query<{
    query: string
    calls: string
    ms: number
    buffers: string
    dirtied: string
  }>(
    `select query, calls::text, total_exec_time as ms,
            (shared_blks_hit + shared_blks_read)::text as buffers, shared_blks_dirtied::text as dirtied
       from pg_stat_statements where query not like '%pg_stat_statements%'`,
  )
  const executed = new Map<string, Executed>()
  for (const row of rows) {
    const key = row.query.replace(/\s+/g, ' ').slice(0, 150)
    const known = executed.get(key) ?? { calls: 0, ms: 0, buffers: 0, dirtied: 0 }
    executed.set(key, {
      calls: known.calls + Number(row.calls),
      ms: known.ms + row.ms,
      buffers: known.buffers + Number(row.buffers),
      dirtied: known.dirtied + Number(row.dirtied),
    })
  }
  return executed
}
const profileDir = process.env.BENCH_CPU_PROF_DIR
const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
const server = await startServer({
  databaseUrl: postgres.url,
  features: true,
  nodeArgs: [`--import=${counter}`, ...profiling],
})
const receiver = await startReceiver()
const base = server.baseUrl
let made = 0

const signUpMany = async (count: number) => {
  let left = count
  const connection = async () => {
    // Taken before the request: four connections testing `left` and counting their sign-up only once
    // it was answered made three sign-ups too many a phase (43 for 40; 688 deliveries for 640).
    while (left > 0) {
      left -= 1
      const body = signUpBody(`bench-cost-${process.pid}-${made++}@example.test`)
      const headers = { 'content-type': 'application/json', origin: base }
      const answer = await fetch(`${base}/api/auth/sign-up/email`, { method: 'POST', headers, body })
      if (!answer.ok) throw new Error(`sign-up: ${answer.status} ${await answer.text()}`)
      await answer.arrayBuffer()
    }
  }
  await Promise.all([connection(), connection(), connection(), connection()])
}

const removeAll = async (ids: readonly string[]) => {
  for (const endpointId of ids)
    await fetch(`${base}/api/auth/webhook/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
      body: JSON.stringify({ endpointId }),
    })
}

const phase = async (withEndpoints: boolean): Promise<Phase> => {
  const types = ['user.created', 'session.created', 'user.updated']
  const ids = withEndpoints ? await createEndpoints(base, receiver, endpoints, types) : []
  await sleep(2500)
  const [before, mainBefore, received] = [lastSnapshot(), mainThreadMs(server.pid), receiver.count()]
  const [connected, repeatedBefore] = [receiver.connections(), receiver.repeated()]
  const startedUs = process.hrtime.bigint() / 1000n
  await admin.query('select pg_stat_statements_reset()')
  const startedAt = performance.now()
  const cpu = measureCpu({ serverPid: server.pid, databasePid: postgres.pid }, cpus().length)
  await signUpMany(signUps)
  const rate = signUps / ((performance.now() - startedAt) / 1000)
  const expected = received + (withEndpoints ? 2 * endpoints * signUps : 0)
  for (const until = Date.now() + 120_000; receiver.count() < expected && Date.now() < until; )
    await sleep(50)
  await sleep(2500) // the last attempts' write, and a snapshot after it
  const after = lastSnapshot()
  const repeated = receiver.repeated() - repeatedBefore
  const delivered =
    `${receiver.count() - received} deliveries (${repeated} repeated) over ` +
    `${receiver.connections() - connected} new connections`
  const used = cpu()
  const perSignUp = (cores: number) => (cores * (performance.now() - startedAt)) / signUps
  const [serverMs, databaseMs, harnessMs] = [
    perSignUp(used.server),
    perSignUp(used.database),
    perSignUp(used.loadGenerator),
  ]
  const executed = new Map(
    [...(await executedSinceReset())].map(([query, one]) => [
      query,
      {
        calls: one.calls / signUps,
        ms: one.ms / signUps,
        buffers: one.buffers / signUps,
        dirtied: one.dirtied / signUps,
      },
    ]),
  )
  // The same monotonic clock as the profile's timestamps: a profile read by phase (B less A).
  if (profileDir)
    console.log(`phase ${withEndpoints ? 'B' : 'A'} µs ${startedUs} ${process.hrtime.bigint() / 1000n}`)
  const mainMs = (mainThreadMs(server.pid) - mainBefore) / signUps
  await removeAll(ids)
  await sleep(4000)
  const shapes = new Map(
    Object.entries(after.shapes).map(([shape, n]) => [shape, (n - (before.shapes[shape] ?? 0)) / signUps]),
  )
  return {
    withEndpoints,
    mainMs,
    serverMs,
    databaseMs,
    harnessMs,
    statements: (after.queries - before.queries) / signUps,
    shapes,
    executed,
    delivered,
    rate,
  }
}

// Warm-up: the first sign-ups after start cost more (compilation, caches), and an A phase first
// would take it all.
await signUpMany(40)
await sleep(3000)
const phases: Phase[] = []
const total = (phase: Phase, field: keyof Executed) =>
  [...phase.executed.values()].reduce((sum, one) => sum + one[field], 0)
for (let round = 0; round < rounds; round += 1)
  for (const withEndpoints of round % 2 === 0 ? [false, true] : [true, false]) {
    const measured = await phase(withEndpoints)
    phases.push(measured)
    console.log(
      `${withEndpoints ? 'B' : 'A'} ${measured.rate.toFixed(1)} sign-ups/s; server ${measured.serverMs.toFixed(1)} ms CPU (main thread ` +
        `${measured.mainMs.toFixed(1)} ms), harness ${measured.harnessMs.toFixed(1)} ms and ` +
        `${measured.statements.toFixed(2)} statements per sign-up; database processes ` +
        `${measured.databaseMs.toFixed(1)} ms CPU, ${total(measured, 'ms').toFixed(2)} ms executing, ` +
        `${total(measured, 'buffers').toFixed(0)} shared buffers (${total(measured, 'dirtied').toFixed(1)} dirtied); ${measured.delivered}`,
    )
  }
const mean = (withEndpoints: boolean, pick: (phase: Phase) => number) => {
  const some = phases.filter((one) => one.withEndpoints === withEndpoints)
  return some.reduce((sum, one) => sum + pick(one), 0) / some.length
}
const extra = (pick: (phase: Phase) => number) => mean(true, pick) - mean(false, pick)
const events = 2 * endpoints
console.log(
  `${endpoints} endpoints, B less A per sign-up: server ${extra((p) => p.serverMs).toFixed(2)} ms CPU, ` +
    `database ${extra((p) => p.databaseMs).toFixed(2)} ms, harness (the receiver) ${extra((p) => p.harnessMs).toFixed(2)} ms`,
)
console.log(
  `${endpoints} endpoints, B less A: main thread ${extra((p) => p.mainMs).toFixed(2)} ms and ` +
    `${extra((p) => p.statements).toFixed(2)} statements per sign-up; per delivered event ` +
    `${(extra((p) => p.mainMs) / events).toFixed(3)} ms and ${(extra((p) => p.statements) / events).toFixed(3)} statements`,
)
console.log(
  `  database: ${extra((p) => p.databaseMs).toFixed(2)} ms CPU, ${extra((p) => total(p, 'ms')).toFixed(2)} ms ` +
    `executing, ${extra((p) => total(p, 'buffers')).toFixed(0)} shared buffers ` +
    `(${extra((p) => total(p, 'dirtied')).toFixed(1)} dirtied) per sign-up; by statement (calls, ms, buffers, dirtied):`,
)
const queries = new Set(phases.flatMap((one) => [...one.executed.keys()]))
const moved = (query: string, field: keyof Executed) => extra((p) => p.executed.get(query)?.[field] ?? 0)
for (const query of [...queries].sort((a, b) => moved(b, 'ms') - moved(a, 'ms')).slice(0, 12)) {
  if (Math.abs(moved(query, 'calls')) < 0.05 && Math.abs(moved(query, 'ms')) < 0.01) continue
  const figures = (['calls', 'ms', 'buffers', 'dirtied'] as const).map((f) =>
    moved(query, f).toFixed(2).padStart(7),
  )
  console.log(`  ${figures.join(' ')}  ${query}`)
}
console.log("  statements by shape (the server's count):")
const shapes = new Set(phases.flatMap((one) => [...one.shapes.keys()]))
for (const shape of shapes) {
  const more = extra((p) => p.shapes.get(shape) ?? 0)
  if (Math.abs(more) >= 0.05) console.log(`  ${more.toFixed(2).padStart(6)} ${shape}`)
}
await server.stop()
await admin.end()
await postgres.stop()
receiver.close()
