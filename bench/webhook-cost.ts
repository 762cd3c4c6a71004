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

import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import { startEmbeddedPostgres } from './embedded-postgres.js'
import { signUpBody } from './seed.js'
import { startServer } from './server.js'
import { createEndpoints, startReceiver } from './webhook-receiver.js'

const [endpoints = 8, signUps = 40, rounds = 2] = process.argv.slice(2).map(Number)
const counts = join(tmpdir(), `tessera-webhook-cost-${process.pid}.jsonl`)
process.env.BENCH_QUERY_COUNT_FILE = counts
const counter = new URL('./query-counter.js', import.meta.url).pathname

type Snapshot = { queries: number; shapes: Record<string, number> }
type Phase = { withEndpoints: boolean; mainMs: number; statements: number; shapes: Map<string, number> }

const lastSnapshot = (): Snapshot =>
  JSON.parse(readFileSync(counts, 'utf8').trim().split('\n').at(-1) ?? '{}')

/** The main thread's CPU milliseconds (utime + stime, in 10 ms ticks). */
const mainThreadMs = (pid: number): number => {
  const fields = (readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const pg = await startEmbeddedPostgres()
const profileDir = process.env.BENCH_CPU_PROF_DIR
const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
const server = await startServer({
  databaseUrl: pg.url,
  features: true,
  nodeArgs: [`--import=${counter}`, ...profiling],
})
const receiver = await startReceiver()
const base = server.baseUrl
let made = 0

const signUpMany = async (count: number) => {
  let left = count
  const connection = async () => {
    for (; left > 0; left -= 1) {
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
  const startedUs = process.hrtime.bigint() / 1000n
  await signUpMany(signUps)
  const expected = received + (withEndpoints ? 2 * endpoints * signUps : 0)
  for (const until = Date.now() + 120_000; receiver.count() < expected && Date.now() < until; )
    await sleep(50)
  await sleep(2500) // the last attempts' write, and a snapshot after it
  const after = lastSnapshot()
  // The same monotonic clock as the profile's timestamps: a profile read by phase (B less A).
  if (profileDir)
    console.log(`phase ${withEndpoints ? 'B' : 'A'} µs ${startedUs} ${process.hrtime.bigint() / 1000n}`)
  const mainMs = (mainThreadMs(server.pid) - mainBefore) / signUps
  await removeAll(ids)
  await sleep(4000)
  const shapes = new Map(
    Object.entries(after.shapes).map(([shape, n]) => [shape, (n - (before.shapes[shape] ?? 0)) / signUps]),
  )
  return { withEndpoints, mainMs, statements: (after.queries - before.queries) / signUps, shapes }
}

// Warm-up: the first sign-ups after start cost more (compilation, caches), and an A phase first
// would take it all.
await signUpMany(40)
await sleep(3000)
const phases: Phase[] = []
for (let round = 0; round < rounds; round += 1)
  for (const withEndpoints of round % 2 === 0 ? [false, true] : [true, false]) {
    const measured = await phase(withEndpoints)
    phases.push(measured)
    console.log(
      `${withEndpoints ? 'B' : 'A'} main thread ${measured.mainMs.toFixed(1)} ms and ` +
        `${measured.statements.toFixed(2)} statements per sign-up`,
    )
  }
const mean = (withEndpoints: boolean, pick: (phase: Phase) => number) => {
  const some = phases.filter((one) => one.withEndpoints === withEndpoints)
  return some.reduce((sum, one) => sum + pick(one), 0) / some.length
}
const extra = (pick: (phase: Phase) => number) => mean(true, pick) - mean(false, pick)
const events = 2 * endpoints
console.log(
  `${endpoints} endpoints, B less A: ${extra((p) => p.mainMs).toFixed(2)} ms and ` +
    `${extra((p) => p.statements).toFixed(2)} statements per sign-up; per delivered event ` +
    `${(extra((p) => p.mainMs) / events).toFixed(3)} ms and ${(extra((p) => p.statements) / events).toFixed(3)} statements`,
)
const shapes = new Set(phases.flatMap((one) => [...one.shapes.keys()]))
for (const shape of shapes) {
  const more = extra((p) => p.shapes.get(shape) ?? 0)
  if (Math.abs(more) >= 0.05) console.log(`  ${more.toFixed(2).padStart(6)} ${shape}`)
}
await server.stop()
await pg.stop()
receiver.close()
