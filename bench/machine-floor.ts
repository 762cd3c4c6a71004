/// The machine's floor for an answer that records a fact (issue 33's `verify-totp ≥ 2,000/s`
/// against what this machine can do at all): `node dist/bench/machine-floor.js [seconds]` (after
/// `npm run build`). A throwaway embedded PostgreSQL (default settings, as the bench's) and a bare
/// `node:http` server (bench/machine-floor-server.ts) answer c16 POSTs from autocannon in this
/// process, in six modes: HTTP alone, one INSERT per answer, a read then an INSERT per answer, the
/// last two with the answers of one event-loop turn sharing their statements (group commit), and
/// `second-step`, a second step as DESIGN.md shapes it (bench/machine-floor-second-step.ts).
/// `FLOOR_MODES=a,b` runs only those.
/// Printed per mode: the rate, p50 and p99, and CPU milliseconds per answer of the server, the
/// database and the load generator; then the rate the machine's cores would allow if all of that
/// CPU were spread over them perfectly (cores ÷ CPU per answer). No real answer can cost less than
/// its mode here: Tessera's second step checks a code against stored state and records the step
/// and the new session before it answers, which is at least `read-insert`; and it answers only once
/// its projector has written the session with its checkpoint, which is `second-step`.

import { fork } from 'node:child_process'
import { once } from 'node:events'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { measureCpu } from './cpu.js'
import { startEmbeddedPostgres } from './embedded-postgres.js'
import { percentile } from './load.js'
import { secondStepSchema } from './machine-floor-second-step.js'
import { freePort } from './server.js'

const seconds = Number(process.argv[2] ?? 10)
const WARM_UP_SECONDS = 3
const CONNECTIONS = 16
const MODES = [
  'http',
  'insert',
  'read-insert',
  'insert-gathered',
  'read-insert-gathered',
  'second-step',
] as const
const chosen: readonly string[] = process.env.FLOOR_MODES?.split(',') ?? MODES
const unknown = chosen.filter((name) => !(MODES as readonly string[]).includes(name))
if (unknown.length > 0)
  throw new Error(`FLOOR_MODES names no mode ${unknown.join(', ')}: ${MODES.join(', ')}`)
const SERVER = fileURLToPath(new URL('./machine-floor-server.js', import.meta.url))
const BODY = JSON.stringify({ code: '123456', trustDevice: false })

const prepare = async (url: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(
      'create table floor_events (seq bigserial primary key, stream text not null, data jsonb not null, at timestamptz not null default now())',
    )
    await client.query(
      'create table floor_people (id int primary key, stream text not null, data jsonb not null)',
    )
    await client.query(
      `insert into floor_people select n, 'person-' || n, jsonb_build_object('secret', md5(n::text)) from generate_series(1, 1000) n`,
    )
    // 300,000 events written only for the mode that reads them.
    if (chosen.includes('second-step'))
      for (const statement of secondStepSchema) await client.query(statement)
  } finally {
    await client.end()
  }
}

const drive = async (url: string, duration: number): Promise<Float64Array> => {
  const latencies: number[] = []
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    pipelining: 1,
    requests: [{ method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: BODY }],
  })
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status !== 200) throw new Error(`the floor server answered ${status}`)
    latencies.push(ms)
  })
  await instance
  return Float64Array.from(latencies).sort()
}

const measure = async (
  mode: (typeof MODES)[number],
  databaseUrl: string,
  databasePid: () => number | undefined,
) => {
  const port = await freePort()
  const child = fork(SERVER, [], {
    env: { ...process.env, FLOOR_MODE: mode, PORT: String(port), DATABASE_URL: databaseUrl },
    stdio: 'inherit',
  })
  await once(child, 'message')
  try {
    const url = `http://127.0.0.1:${port}/`
    await drive(url, WARM_UP_SECONDS)
    const cores = cpus().length
    const stop = measureCpu({ serverPid: child.pid ?? 0, databasePid }, cores)
    const started = performance.now()
    const latencies = await drive(url, seconds)
    const wall = (performance.now() - started) / 1000
    const cpu = stop()
    const rate = latencies.length / wall
    const perAnswer = (coresBusy: number) => (coresBusy / rate) * 1000
    const total = perAnswer(cpu.server + cpu.database + cpu.loadGenerator)
    console.log(
      `${mode.padEnd(12)} ${rate.toFixed(0).padStart(6)}/s  p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms  ` +
        `CPU ms per answer: server ${perAnswer(cpu.server).toFixed(3)}, database ${perAnswer(cpu.database).toFixed(3)}, ` +
        `load generator ${perAnswer(cpu.loadGenerator).toFixed(3)}, other ${perAnswer(cpu.other).toFixed(3)}; ` +
        `${cores} cores allow at most ${((cores / total) * 1000).toFixed(0)}/s ` +
        `(${((cores / (total - perAnswer(cpu.loadGenerator))) * 1000).toFixed(0)}/s with a load generator that costs nothing)`,
    )
  } finally {
    child.kill()
    await once(child, 'exit')
  }
}

const database = await startEmbeddedPostgres()
try {
  await prepare(database.url)
  for (const mode of MODES.filter((name) => chosen.includes(name)))
    await measure(mode, database.url, () => database.pid())
} finally {
  await database.stop()
}
