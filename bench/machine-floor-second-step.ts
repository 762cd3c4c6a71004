/// The `second-step` mode of bench/machine-floor-server.ts: the least work the architecture of
/// DESIGN.md asks of a second step that signs in, written as leanly as `pg` allows, so that issue 33's
/// `verify-totp ≥ 2,000/s` can be read against it. Per answer, each step with at most one statement
/// in flight and the answers that reach it meanwhile sharing the next (as Tessera gathers its own):
/// - the person's two-factor stream read from the log, and their row read (bans) beside it;
/// - two events appended to the log in one statement (the code's acceptance on the person's stream,
///   the new session on its own), refused by the log's unique (stream, version) if either stream
///   moved;
/// - the in-process projector reads what was appended after its checkpoint and writes the session,
///   two activity entries and the person's last-seen time with its checkpoint, in one statement
///   (one transaction);
/// - the answer waits until the projector has passed its events (read-your-writes), then answers.
/// Left out, so that this stays a floor: HTTP parsing beyond the body, cookies, sealing and opening
/// personal fields, TOTP, validation, the event store's global-order guard and NOTIFY.

import { randomUUID } from 'node:crypto'
import type pg from 'pg'

/** People seeded with a stream of this many events; each answer takes the next person. */
export const SECOND_STEP_PEOPLE = 60_000
const EVENTS_PER_PERSON = 5

export const secondStepSchema = [
  `create table floor_log (seq bigserial primary key, stream text not null, version int not null,
     type text not null, data jsonb not null, at timestamptz not null default now(), unique (stream, version))`,
  `insert into floor_log (stream, version, type, data)
     select 'two-factor-' || p, v, 'two-factor.step-' || v, jsonb_build_object('secret', md5(p::text), 'step', v)
     from generate_series(1, ${SECOND_STEP_PEOPLE}) p, generate_series(1, ${EVENTS_PER_PERSON}) v`,
  `create table floor_sessions (id text primary key, user_id text not null, token_hash text not null,
     expires_at timestamptz not null, created_at timestamptz not null)`,
  'create index on floor_sessions (user_id)',
  `create table floor_activity (id text primary key, user_id text not null, type text not null,
     at timestamptz not null, details jsonb not null)`,
  'create index on floor_activity (user_id, at)',
  'create table floor_last_seen (user_id text primary key, at timestamptz not null)',
  'create table floor_checkpoint (name text primary key, seq bigint not null)',
  `insert into floor_checkpoint values ('floor', (select max(seq) from floor_log))`,
  'analyze',
]

const readStreams = {
  name: 'floor-read-streams',
  text: 'select stream, version, type, data from floor_log where stream = any($1::text[]) order by stream, version',
}
/** The people's rows by id, many at once (the gathered read modes use it too). */
export const readPeople = {
  name: 'floor-read-people',
  text: 'select id, stream, data from floor_people where id = any($1::int[])',
}
const append = {
  name: 'floor-append',
  text: `insert into floor_log (stream, version, type, data)
         select * from unnest($1::text[], $2::int[], $3::text[], $4::jsonb[]) returning seq`,
}
const readNew = {
  name: 'floor-read-new',
  text: 'select seq::text, stream, type, data from floor_log where seq > $1 order by seq limit 1000',
}
const project = {
  name: 'floor-project',
  text: `with sessions as (
           insert into floor_sessions (id, user_id, token_hash, expires_at, created_at)
           select id, user_id, token_hash, now() + interval '7 days', now()
           from unnest($1::text[], $2::text[], $3::text[]) s(id, user_id, token_hash) returning 1),
         activity as (
           insert into floor_activity (id, user_id, type, at, details)
           select id, user_id, type, now(), details from unnest($4::text[], $5::text[], $6::text[], $7::jsonb[])
             a(id, user_id, type, details) returning 1),
         seen as (
           insert into floor_last_seen (user_id, at) select distinct u, now() from unnest($8::text[]) u
           on conflict (user_id) do update set at = excluded.at returning 1)
         update floor_checkpoint set seq = $9 where name = 'floor'`,
}

type Row = { seq: string; stream: string; type: string; data: { userId: string; token?: string } }

/** `pool`: the answers' connections; `projector`: the projector's, which may have settings of its own. */
export const secondStepFloor = (pool: pg.Pool, projector: pg.Pool) => {
  // Where the projector stands: the checkpoint's position, read when it first runs.
  let projected: bigint | null = null
  let projecting = false
  // Woken while it ran: it reads again before it rests, so no append waits for a wake-up lost.
  let wokenMeanwhile = false
  const waiters: { seq: bigint; resolve: () => void }[] = []

  /** The projector: everything after its checkpoint, written with the checkpoint in one statement. */
  const runProjector = async (): Promise<void> => {
    if (projecting) {
      wokenMeanwhile = true
      return
    }
    projecting = true
    try {
      if (projected === null) {
        const { rows } = await projector.query<{ seq: string }>(
          "select seq::text from floor_checkpoint where name = 'floor'",
        )
        projected = BigInt((rows[0] as { seq: string }).seq)
      }
      for (;;) {
        wokenMeanwhile = false
        const { rows } = await projector.query<Row>({ ...readNew, values: [String(projected)] })
        if (rows.length === 0 && !wokenMeanwhile) break
        if (rows.length === 0) continue
        const sessions = rows.filter((row) => row.type === 'session.started')
        const users = rows.map((row) => row.data.userId)
        const last = BigInt((rows.at(-1) as Row).seq)
        await projector.query({
          ...project,
          values: [
            sessions.map((row) => row.stream),
            sessions.map((row) => row.data.userId),
            sessions.map((row) => row.data.token ?? ''),
            rows.map(() => randomUUID()),
            users,
            rows.map((row) => row.type),
            rows.map((row) => JSON.stringify(row.data)),
            users,
            last.toString(),
          ],
        })
        projected = last
        for (let i = waiters.length - 1; i >= 0; i--) {
          const waiter = waiters[i] as (typeof waiters)[number]
          if (waiter.seq <= last) {
            waiters.splice(i, 1)
            waiter.resolve()
          }
        }
      }
    } finally {
      projecting = false
    }
  }

  const projectedPast = (seq: bigint): Promise<void> =>
    projected !== null && seq <= projected
      ? Promise.resolve()
      : new Promise((resolve) => waiters.push({ seq, resolve }))

  // Each step has at most one statement in flight; the answers that reach it meanwhile go together
  // in its next one (group commit), as Tessera's gathered reads and appends do.
  const readStep = oneInFlight(async (people: number[]) => {
    const streams = people.map((person) => `two-factor-${person}`)
    const [history] = await Promise.all([
      pool.query<{ stream: string; version: number }>({ ...readStreams, values: [streams] }),
      pool.query({ ...readPeople, values: [people.map((person) => (person % 1000) + 1)] }),
    ])
    const versions = new Map<string, number>()
    for (const row of history.rows) versions.set(row.stream, row.version)
    return streams.map((stream) => versions.get(stream) ?? 0)
  })
  const appendStep = oneInFlight(async (steps: { person: number; version: number }[]) => {
    const { rows } = await pool.query<{ seq: string }>({
      ...append,
      values: [
        steps.flatMap(({ person }) => [`two-factor-${person}`, `session-${randomUUID()}`]),
        steps.flatMap(({ version }) => [version + 1, 1]),
        steps.flatMap(() => ['two-factor.challenge-passed', 'session.started']),
        steps.flatMap(({ person }) => [
          JSON.stringify({ userId: `person-${person}`, step: 1 }),
          JSON.stringify({ userId: `person-${person}`, token: randomUUID() }),
        ]),
      ],
    })
    // PostgreSQL returns the rows of an INSERT ... SELECT in the order it inserted them: each
    // answer's two events, then the next answer's.
    return steps.map((_, i) => BigInt((rows[2 * i + 1] as { seq: string }).seq))
  })

  let next = 0
  return async (): Promise<void> => {
    const person = (next++ % SECOND_STEP_PEOPLE) + 1
    const version = await readStep(person)
    const seq = await appendStep({ person, version })
    void runProjector()
    await projectedPast(seq)
  }
}

/** Calls of `run` one at a time, each with every item that arrived while the one before ran. */
const oneInFlight = <Item, Result>(run: (items: Item[]) => Promise<Result[]>) => {
  let queued: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = []
  let running = false
  const drain = async (): Promise<void> => {
    running = true
    while (queued.length > 0) {
      const batch = queued
      queued = []
      try {
        const results = await run(batch.map(({ item }) => item))
        for (const [i, { resolve }] of batch.entries()) resolve(results[i] as Result)
      } catch (error) {
        for (const { reject } of batch) reject(error)
      }
    }
    running = false
  }
  return (item: Item): Promise<Result> =>
    new Promise((resolve, reject) => {
      queued.push({ item, resolve, reject })
      // The first of a turn waits for the turn's others before the statement goes.
      if (!running && queued.length === 1) setImmediate(() => void drain())
    })
}
