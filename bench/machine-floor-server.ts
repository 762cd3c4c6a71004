/// The least a server can do per answer on this machine, for bench/machine-floor.ts: a bare
/// `node:http` server (no framework, no validation, no cookies signed) that answers a small JSON
/// body in one of these ways, chosen by `FLOOR_MODE`:
/// - `http`: no database at all, the cost of HTTP alone;
/// - `insert`: one autocommit INSERT of a small JSON row per answer (the least an answer that must
///   record a fact durably before it answers can do);
/// - `read-insert`: a primary-key read, then the INSERT (an answer that must look at a stored
///   state before it records, as a second-step check does);
/// - `insert-gathered` and `read-insert-gathered`: the same work, but the answers that arrive in one
///   turn of the event loop share one statement for their reads and one for their inserts (group
///   commit), the cheapest form of the same durability on the database's side;
/// - `second-step`: the shape DESIGN.md gives a second step (log read, append, projector,
///   read-your-writes wait), each step with one statement in flight and the answers that reach it
///   meanwhile sharing the next (bench/machine-floor-second-step.ts).
/// Statements are prepared once per connection (named), as the real server's hot statements are.

import { createServer } from 'node:http'
import pg from 'pg'
import { readPeople, secondStepFloor } from './machine-floor-second-step.js'

const mode = process.env.FLOOR_MODE ?? 'http'
const port = Number(process.env.PORT)
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })

const insert = { name: 'floor-insert', text: 'insert into floor_events (stream, data) values ($1, $2)' }
const read = { name: 'floor-read', text: 'select id, stream, data from floor_people where id = $1' }
const insertMany = {
  name: 'floor-insert-many',
  text: 'insert into floor_events (stream, data) select * from unnest($1::text[], $2::jsonb[])',
}

type Waiting = { person: number; body: string; done: (error?: unknown) => void }
let gathered: Waiting[] = []

/** Runs every answer gathered in this turn as one read and one insert. */
const flush = async (batch: Waiting[]): Promise<void> => {
  try {
    if (mode === 'read-insert-gathered') {
      const { rows } = await pool.query({ ...readPeople, values: [batch.map((w) => w.person)] })
      if (rows.length !== new Set(batch.map((w) => w.person)).size) throw new Error('a person is missing')
    }
    await pool.query({
      ...insertMany,
      values: [batch.map((w) => `person-${w.person}`), batch.map((w) => w.body)],
    })
    for (const waiting of batch) waiting.done()
  } catch (error) {
    for (const waiting of batch) waiting.done(error)
  }
}

const gather = (person: number, body: string): Promise<void> =>
  new Promise((resolve, reject) => {
    if (gathered.length === 0)
      setImmediate(() => {
        const batch = gathered
        gathered = []
        void flush(batch)
      })
    gathered.push({ person, body, done: (error) => (error ? reject(error) : resolve()) })
  })

const readBody = (request: import('node:http').IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
    })
    request.on('end', () => resolve(body))
    request.on('error', reject)
  })

// The projector's own connection. `FLOOR_PROJECTOR_ASYNC=1`: its commits do not wait for the disk
// (its writes can be projected again from the log, which does).
const secondStep =
  mode === 'second-step'
    ? secondStepFloor(
        pool,
        new pg.Pool({
          connectionString: process.env.DATABASE_URL,
          max: 1,
          ...(process.env.FLOOR_PROJECTOR_ASYNC === '1' ? { options: '-c synchronous_commit=off' } : {}),
        }),
      )
    : null

let next = 0
const answer = async (body: string): Promise<string> => {
  const person = (next++ % 1000) + 1
  if (secondStep) await secondStep()
  else if (mode.endsWith('-gathered')) await gather(person, body)
  else if (mode === 'read-insert') {
    const { rows } = await pool.query({ ...read, values: [person] })
    if (rows.length !== 1) throw new Error(`person ${person} missing`)
  }
  if (mode === 'insert' || mode === 'read-insert')
    await pool.query({ ...insert, values: [`person-${person}`, body] })
  return JSON.stringify({ token: `t${person}`, user: { id: `person-${person}` } })
}

createServer((request, response) => {
  readBody(request)
    .then(answer)
    .then((json) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(json),
        'set-cookie': `session=${'x'.repeat(64)}; Path=/; HttpOnly; SameSite=Lax`,
      })
      response.end(json)
    })
    .catch((error: unknown) => {
      response.writeHead(500)
      response.end(String(error))
    })
}).listen(port, '127.0.0.1', () => {
  process.send?.('ready')
})
