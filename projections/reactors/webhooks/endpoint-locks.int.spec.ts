/// The endpoints' advisory locks on PostgreSQL (endpoint-locks.ts): one sender per endpoint across
/// processes (two pools stand for two processes), and many endpoints delivering at once on one
/// connection, so that they neither take the pool from the requests nor wait on it themselves.

import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../infra/db/database.js'
import { freshPostgres, type PostgresDatabase } from '../../../tests/support/databases.js'
import type { Database } from '../../database.js'
import { sessionLocks } from './endpoint-locks.js'

/** Work that holds its lock until released; `entered` resolves once it runs. */
const holdingWork = () => {
  let release: () => void = () => {}
  let enter: () => void = () => {}
  const entered = new Promise<void>((resolve) => {
    enter = resolve
  })
  const work = () =>
    new Promise<string>((resolve) => {
      release = () => resolve('done')
      enter()
    })
  return { work, entered, release: () => release() }
}

const backendOf = async (q: Kysely<Database>) =>
  (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(q)).rows[0]?.pid

describe('webhook endpoint locks (PostgreSQL)', { timeout: 60_000 }, () => {
  let database: PostgresDatabase
  let other: Awaited<ReturnType<typeof openDatabase<Database>>>
  beforeEach(async () => {
    database = await freshPostgres()
    other = await openDatabase<Database>({ kind: 'postgres', url: database.url })
  })
  afterEach(async () => {
    await other.close()
    await database.close()
  })

  it('lets one process deliver to an endpoint at a time, and the other once it is done', async () => {
    const here = sessionLocks(database.db)
    const there = sessionLocks(other.db)
    const hold = holdingWork()
    const holding = here.run('ep-1', hold.work)
    await hold.entered
    expect(await there.run('ep-1', async () => 'ran')).toBe('busy')
    expect(await there.run('ep-2', async () => 'ran')).toBe('ran')
    hold.release()
    expect(await holding).toBe('done')
    expect(await there.run('ep-1', async () => 'ran')).toBe('ran')
  })

  it('refuses a second run of the same endpoint in the same process while the first holds it', async () => {
    const locks = sessionLocks(database.db)
    const hold = holdingWork()
    const first = locks.run('ep-1', hold.work)
    await hold.entered
    expect(await locks.run('ep-1', async () => 'ran')).toBe('busy')
    expect(await locks.run('ep-2', async () => 'ran')).toBe('ran')
    hold.release()
    expect(await first).toBe('done')
    expect(await locks.run('ep-1', async () => 'ran')).toBe('ran')
  })

  it('runs more endpoints at once than the pool has connections, on one connection, the pool still free', async () => {
    const small = await openDatabase<Database>({ kind: 'postgres', url: database.url, poolSize: 3 })
    try {
      const locks = sessionLocks(small.db)
      const backends = new Set<number | undefined>()
      let waiting = 12
      let allIn: () => void = () => {}
      const together = new Promise<void>((resolve) => (allIn = resolve))
      const runs = Array.from({ length: 12 }, (_, n) =>
        locks.run(`ep-${n}`, async (q) => {
          backends.add(await backendOf(q))
          waiting -= 1
          if (waiting === 0) allIn()
          await together // every run holds its lock at the same time
          // What a run reads through the pool (the log, the secrets) is still served.
          return (await sql<{ one: number }>`select 1 as one`.execute(small.db)).rows[0]?.one
        }),
      )
      expect(await Promise.all(runs)).toEqual(Array(12).fill(1))
      expect(backends.size).toBe(1)
      const { rows } = await sql<{ held: string }>`
        select count(*)::text as held from pg_locks
        where locktype = 'advisory'
          and database = (select oid from pg_database where datname = current_database())`.execute(
        database.db,
      )
      expect(rows[0]?.held).toBe('0')
    } finally {
      await small.close()
    }
  })
})
