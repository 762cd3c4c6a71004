/// The batched path's plan (statement-plan.ts, statement-merge.ts) must leave the read models exactly
/// as applying the same events one at a time does. Random lives of a few people (sign-ups, sign-ins
/// at times out of order, sessions' organizations and refreshes, sign-outs, profile changes,
/// deletions), through the real projections:
/// applied as one batch on the batched path (its failure fails the test: no silent fallback), then
/// replayed event by event; every table they write must come out the same, row for row.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, expect, it } from 'vitest'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { EventStore, EventToAppend } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { describeEachDatabase } from '../../tests/support/databases.js'
import { testMetadata } from '../../tests/support/projector-fixtures.js'
import { readModelProjections } from '../all.js'
import { replay } from './projector.js'
import { tableFactsOf, writeBehind } from './write-behind.js'

const TABLES = ['users', 'user_last_seen', 'accounts', 'sessions', 'activity'] as const
const SEEDS = 6
const EVENTS = 60

/** A small seeded generator (mulberry32): a failing seed can be run again. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

type Life = { stream: string; event: EventToAppend }

const event = (type: string, data: object, minute: number): EventToAppend => ({
  id: randomUUID(),
  type,
  data,
  metadata: testMetadata(new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString()),
})

/** `count` events of a few people's lives; sign-in times jump back and forth (user_last_seen keeps the latest). */
const lives = (seed: number, count: number): Life[] => {
  const next = random(seed)
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)]
  const users: string[] = []
  const sessions: { id: string; userId: string }[] = []
  const out: Life[] = []
  while (out.length < count) {
    const roll = next()
    const userId = pick(users)
    const minute = Math.floor(next() * 600)
    if (!userId || roll < 0.15) {
      const id = `u${seed}-${out.length}`
      users.push(id)
      const data = { userId: id, email: `${id}@x.test`, name: id, image: null, emailVerified: false }
      out.push({
        stream: `user-${id}`,
        event: event('user.registered', { ...data, credential: null }, minute),
      })
    } else if (roll < 0.55) {
      const sessionId = randomUUID()
      sessions.push({ id: sessionId, userId })
      const data = { sessionId, userId, tokenHash: sessionId, expiresAt: '2027-01-01T00:00:00.000Z' }
      const device = { ipAddress: '192.0.2.1', userAgent: `agent ${minute}`, rememberMe: true }
      out.push({
        stream: `session-${sessionId}`,
        event: event('session.started', { ...data, ...device }, minute),
      })
    } else if (roll < 0.68 && sessions.length > 0) {
      // Its organization, often set twice in a row: a batch's updates of one row stay in order.
      const session = pick(sessions) as (typeof sessions)[0]
      const times = next() < 0.5 ? 2 : 1
      for (let time = 0; time < times; time++) {
        const organizationId = pick(['org-1', 'org-2', null]) ?? null
        const data = { sessionId: session.id, userId: session.userId, organizationId, teamId: null }
        out.push({
          stream: `session-${session.id}`,
          event: event('session.active-organization-set', data, minute),
        })
      }
    } else if (roll < 0.72 && sessions.length > 0) {
      const session = pick(sessions) as (typeof sessions)[0]
      const data = {
        sessionId: session.id,
        expiresAt: new Date(Date.UTC(2027, 1, 1, 0, minute)).toISOString(),
      }
      out.push({ stream: `session-${session.id}`, event: event('session.refreshed', data, minute) })
    } else if (roll < 0.8 && sessions.length > 0) {
      const session = sessions.splice(Math.floor(next() * sessions.length), 1)[0] as (typeof sessions)[0]
      const data = { sessionId: session.id, userId: session.userId, reason: 'sign-out' }
      out.push({ stream: `session-${session.id}`, event: event('session.revoked', data, minute) })
    } else if (roll < 0.93) {
      const data = { userId, name: `name ${minute}` }
      out.push({ stream: `user-${userId}`, event: event('user.profile-updated', data, minute) })
    } else {
      users.splice(users.indexOf(userId), 1)
      const data = { userId, email: `${userId}@x.test` }
      out.push({ stream: `user-${userId}`, event: event('user.deleted', data, minute) })
    }
  }
  return out
}

describeEachDatabase('projector, batched path against event by event', (fresh) => {
  let database: OpenDatabase
  let store: EventStore

  // A database of its own for each log, so that each replay goes over its own events only.
  const open = async () => {
    database = await fresh()
    store = createSqlEventStore(database.db, { singleBackend: database.kind === 'pglite' })
  }
  const close = async () => {
    await store.close()
    await database.close()
  }
  afterEach(close)

  const tables = async () => {
    const snapshot: Record<string, unknown[]> = {}
    for (const table of TABLES) {
      const { rows } = await sql<{ row: unknown }>`
        select to_jsonb(t) as row from ${sql.table(table)} t order by row`.execute(database.db)
      snapshot[table] = rows.map((row) => row.row)
    }
    return snapshot
  }

  /** The whole log as one batch on the batched path, with no fallback: its plan is what is tested. */
  const applyBatched = async () => {
    const events = await store.readAll({ tx: 0n, seq: 0n }, 10_000)
    await database.db.transaction().execute(async (trx) => {
      const behind = writeBehind(trx, database.kind !== 'pglite', await tableFactsOf(trx))
      for (const [index, recorded] of events.entries()) {
        behind.startEvent(index)
        for (const projection of readModelProjections) await projection.apply(behind.trx, recorded)
      }
      await behind.flush()
    })
  }

  it(`${SEEDS} random logs of ${EVENTS} events leave the same rows batched and one event at a time`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      if (seed > 1) await close()
      await open()
      for (const { stream, event: appended } of lives(seed, EVENTS))
        await store.appendToStream(stream, [appended], { expectedVersion: 'any' })
      // Both start from empty tables: the replay empties them before its event-by-event run.
      await replay({ db: database.db, store, projections: readModelProjections, batchSize: 1 })
      const oneByOne = await tables()
      for (const table of TABLES) await database.db.deleteFrom(table).execute()
      await applyBatched()
      const batched = await tables()
      expect(batched, `seed ${seed}`).toEqual(oneByOne)
      expect(oneByOne.users?.length, `seed ${seed}`).toBeGreaterThan(0)
      expect(oneByOne.user_last_seen?.length, `seed ${seed}`).toBeGreaterThan(0)
    }
  }, 300_000)
})
