import { randomUUID } from 'node:crypto'
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Transaction,
} from 'kysely'
import { describe, expect, test } from 'vitest'
import { knownEventTypes } from '../../domain/events.js'
import type { EventToAppend } from '../../infra/event-store/event-store.js'
import { inline } from './inline-projection.js'

// The statements the hook issues, without a database: `affects` lets the SQL store append without a
// transaction, so an event it calls unaffected must give the hook nothing to write.
const issued: string[] = []
const recording = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
  log: (event) => {
    if (event.level === 'query') issued.push(event.query.sql)
  },
})

const anEventOf = (type: string): EventToAppend => ({
  id: randomUUID(),
  type,
  // Every id any hook reads, so a hook that writes for this type has what it needs.
  data: { sessionId: 's-1', userId: 'u-1', keyId: 'k-1', organizationId: 'o-1', alsoErases: ['x-1'] },
  metadata: {
    actor: { type: 'user', userId: 'u-1' },
    ip: null,
    userAgent: null,
    correlationId: randomUUID(),
    causationId: null,
    at: new Date().toISOString(),
  },
})

const writesFor = async (event: EventToAppend): Promise<boolean> => {
  issued.length = 0
  await recording.transaction().execute((trx) => inline(trx as Transaction<unknown>, [event]))
  return issued.length > 0
}

describe('the inline projection', () => {
  test('writes only for the event types it says it affects', async () => {
    const affected: string[] = []
    for (const type of knownEventTypes()) {
      const event = anEventOf(type)
      const affects = inline.affects?.([event]) ?? true
      if (affects) affected.push(type)
      if (await writesFor(event)) expect({ type, affects }).toEqual({ type, affects: true })
    }
    // What ends a session, stops an API key or erases a subject; never a sign-in.
    expect(affected).toEqual(
      expect.arrayContaining(['session.revoked', 'user.deleted', 'user.banned', 'api-key.disabled']),
    )
    expect(affected).not.toContain('session.started')
    expect(affected).not.toContain('user.registered')
  })

  test('an append with one affected event among others is affected', () => {
    const events = [anEventOf('session.started'), anEventOf('session.revoked')]
    expect(inline.affects?.(events)).toBe(true)
    expect(inline.affects?.(events.slice(0, 1))).toBe(false)
  })
})
