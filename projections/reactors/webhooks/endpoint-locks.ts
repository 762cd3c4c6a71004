/// Who may deliver to an endpoint: one sender per endpoint across processes. On PostgreSQL a run
/// holds a session advisory lock named after the endpoint (another process finds it taken and tries
/// later); embedded PGlite serves one process, which runs one worker per endpoint anyway.
///
/// Why one shared session: a run lasts as long as its HTTP requests, and a session lock lives on one
/// connection. With a pinned connection per running endpoint, ten endpoints delivering at once held
/// the whole pool (10 connections), and sign-ups and get-session waited behind webhook deliveries;
/// past ten, the runs themselves waited for a connection to read the log and stalled. Here every
/// endpoint's lock is taken on the same connection, which the runs also write their attempts and
/// checkpoints through (a dead connection fails the run's next write, as its lock went with it, so
/// a run never goes on writing without its lock for longer than one flush). The connection goes
/// back to the pool when no run holds a lock.
///
/// The locks taken (and let go) within a few milliseconds of each other are one statement
/// (gathered-calls.ts): the runs of every endpoint start on the same commit, and end together.

import { type Kysely, sql } from 'kysely'
import type { Database } from '../../database.js'
import { gatheredCalls } from './gathered-calls.js'

export type EndpointLocks = {
  /**
   * Runs `work` holding the endpoint's lock, with the connection its writes go through, or answers
   * `busy` at once when another process holds it.
   */
  run<T>(endpointId: string, work: (q: Kysely<Database>) => Promise<T>): Promise<T | 'busy'>
}

/** One process owns the database (PGlite): nothing to take. */
export const inProcessLocks = (db: Kysely<Database>): EndpointLocks => ({
  run: (_endpointId, work) => work(db),
})

type Session = { ready: Promise<Kysely<Database>>; release(): void; users: number }

const lockKey = (endpointId: string) => `tessera-webhook:${endpointId}`

/** A connection taken from the pool and held until `release` is called. */
const openSession = (db: Kysely<Database>): Session => {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const ready = new Promise<Kysely<Database>>((resolve, reject) => {
    db.connection()
      .execute(async (conn) => {
        resolve(conn)
        await held
      })
      .catch(reject)
  })
  ready.catch(() => {}) // the run that waits on it sees the failure
  return { ready, release: () => release(), users: 0 }
}

/** Under a database round trip: the runs a commit starts ask within a millisecond or two. */
const GATHER_MS = 3

/** Each key's lock tried in one statement: whether it was taken. */
const tryLocks = async (q: Kysely<Database>, keys: readonly string[]) => {
  const { rows } = await sql<{ key: string; locked: boolean }>`
      select key, pg_try_advisory_lock(hashtextextended(key, 0)) as locked
        from unnest(${keys}::text[]) as key`.execute(q)
  return new Map(rows.map((row) => [row.key, row.locked]))
}

/** Each key's lock let go in one statement. */
const unlocks = async (q: Kysely<Database>, keys: readonly string[]) => {
  const { rows } = await sql<{ key: string; unlocked: boolean }>`
      select key, pg_advisory_unlock(hashtextextended(key, 0)) as unlocked
        from unnest(${keys}::text[]) as key`.execute(q)
  return new Map(rows.map((row) => [row.key, row.unlocked]))
}

/** Advisory locks of every endpoint on one shared session (PostgreSQL). */
export const sessionLocks = (db: Kysely<Database>, gatherMs = GATHER_MS): EndpointLocks => {
  const lock = gatheredCalls(tryLocks, gatherMs)
  const unlock = gatheredCalls(unlocks, gatherMs)
  let current: Session | null = null
  // Session locks are re-entrant: two runs of this process for one endpoint (a worker replaced
  // while its last run ends) would both get it on the shared session.
  const held = new Set<string>()

  const leave = (session: Session) => {
    session.users -= 1
    if (session.users > 0) return
    if (current === session) current = null
    session.release()
  }

  /** The connection died: the next run opens another (the users left release this one). */
  const broken = (session: Session) => {
    if (current === session) current = null
  }

  return {
    async run(endpointId, work) {
      if (held.has(endpointId)) return 'busy'
      held.add(endpointId)
      try {
        return await runLocked(endpointId, work)
      } finally {
        held.delete(endpointId)
      }
    },
  }

  async function runLocked<T>(endpointId: string, work: (q: Kysely<Database>) => Promise<T>) {
    const session = current ?? openSession(db)
    current = session
    session.users += 1
    try {
      const conn = await session.ready
      if ((await lock(conn, lockKey(endpointId))) !== true) return 'busy'
      try {
        return await work(conn)
      } finally {
        // Unlocking fails only when the connection is gone, and its locks with it.
        await unlock(conn, lockKey(endpointId)).catch(() => broken(session))
      }
    } catch (error) {
      broken(session)
      throw error
    } finally {
      leave(session)
    }
  }
}
