import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, test } from 'vitest'
import { type SessionCommand, sessionDecider, sessionStream } from '../../domain/session/session.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import {
  comparePositions,
  type EventStore,
  type GlobalPosition,
} from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPglite } from '../../tests/support/databases.js'
import { createHandle, handlePart } from './handle.js'

const metadata: EventMetadata = {
  actor: { type: 'system' },
  ip: null,
  userAgent: null,
  correlationId: 'request-1',
  causationId: null,
  at: '2026-11-27T12:00:00.000Z',
}

const start = (sessionId: string): SessionCommand => ({
  type: 'start-session',
  sessionId,
  userId: 'user-1',
  tokenHash: `hash-${sessionId}`,
  expiresAt: '2026-12-04T12:00:00.000Z',
  ipAddress: null,
  userAgent: null,
  rememberMe: true,
})

const revoke: SessionCommand = { type: 'revoke-session', requestedBy: 'user-1', reason: 'revoked' }

const opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

/** A SQL store on a fresh PGlite, a projector that records what it was asked to wait for. */
const setUp = async (visible = true) => {
  const database = await freshPglite()
  opened.push(database)
  const store = createSqlEventStore(database.db, { singleBackend: true })
  const waits: GlobalPosition[] = []
  const projector = {
    waitFor: async (position: GlobalPosition) => {
      waits.push(position)
      return visible
    },
  }
  return { store, waits, handle: createHandle({ store, projector }) }
}

describe('handle.together', () => {
  test('appends every part in one transaction and waits once, for the last event', async () => {
    const { store, waits, handle } = await setUp()
    await handle(sessionDecider, sessionStream('s-1'), start('s-1'), { metadata, newStream: true })
    waits.length = 0

    const [revoked, started] = await handle.together([
      handlePart(sessionDecider, sessionStream('s-1'), revoke, { metadata }),
      handlePart(sessionDecider, sessionStream('s-2'), start('s-2'), { metadata, newStream: true }),
    ])
    expect(revoked.state.status).toBe('ended')
    expect(started.events.map((event) => event.type)).toEqual(['session.started'])

    const [one] = (await store.readStream(sessionStream('s-1'))).slice(-1)
    const [two] = await store.readStream(sessionStream('s-2'))
    expect(one?.type).toBe('session.revoked')
    expect(one?.position.tx).toBe(two?.position.tx)
    expect(waits).toEqual([two?.position])
  })

  test('a concurrent writer to one part makes every part decide again on what is there now', async () => {
    const { store, handle } = await setUp()
    await handle(sessionDecider, sessionStream('s-1'), start('s-1'), { metadata, newStream: true })
    // Between the first attempt's read and its append, another request refreshes session s-1.
    let interfered = false
    const racing: EventStore = {
      ...store,
      async appendToStreams(appends) {
        if (!interfered) {
          interfered = true
          await store.appendToStream(
            sessionStream('s-1'),
            [
              {
                id: randomUUID(),
                type: 'session.refreshed',
                data: { sessionId: 's-1', expiresAt: '2026-12-05T12:00:00.000Z' },
                metadata,
              },
            ],
            { expectedVersion: 1 },
          )
        }
        return store.appendToStreams(appends)
      },
    }
    const retrying = createHandle({ store: racing, projector: { waitFor: async () => true } })
    await retrying.together([
      handlePart(sessionDecider, sessionStream('s-1'), revoke, { metadata }),
      handlePart(sessionDecider, sessionStream('s-2'), start('s-2'), { metadata, newStream: true }),
    ])
    const types = (await store.readStream(sessionStream('s-1'))).map((event) => event.type)
    expect(types).toEqual(['session.started', 'session.refreshed', 'session.revoked'])
    expect(await store.readStream(sessionStream('s-2'))).toHaveLength(1)
  })

  test('read models that cannot show the events: READ_MODELS_BEHIND, and the events stay appended', async () => {
    const { store, handle } = await setUp(false)
    const both = handle.together([
      handlePart(sessionDecider, sessionStream('s-1'), start('s-1'), { metadata, newStream: true }),
      handlePart(sessionDecider, sessionStream('s-2'), start('s-2'), { metadata, newStream: true }),
    ])
    await expect(both).rejects.toMatchObject({ code: 'READ_MODELS_BEHIND' })
    const [first] = await store.readStream(sessionStream('s-1'))
    const [second] = await store.readStream(sessionStream('s-2'))
    expect(
      comparePositions(first?.position ?? { tx: 0n, seq: 0n }, second?.position ?? { tx: 0n, seq: 0n }),
    ).toBe(-1)
  })
})
