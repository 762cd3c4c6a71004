/// The projector opens the metadata's personal fields (`ip`, `userAgent`) only of the event types
/// some projection of its group reads them for (`Projection.readsPersonalMetadata`), and every
/// read-model projection declares each type it reads them of: of any other type it handles, an event
/// leaves the same rows whether they are set or null.

import { randomUUID } from 'node:crypto'
import { type Kysely, sql, type Transaction } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { knownEventTypes } from '../../domain/events.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import { withPersonalDataEncryption } from '../../infra/event-store/personal-data/encrypting-event-store.js'
import { createKeyring } from '../../infra/event-store/personal-data/keyring.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPglite } from '../../tests/support/databases.js'
import { readModelProjections } from '../all.js'
import type { Database } from '../database.js'
import type { Projection } from '../projection.js'
import { usersProjection } from '../users/users.projection.js'
import { replay } from './projector.js'

const IP = '203.0.113.17'
const BROWSER = 'Mozilla/5.0 (Metadata Reads)'
const USER = 'x-userId'

let database: OpenDatabase
beforeEach(async () => {
  database = await freshPglite()
})
afterEach(async () => {
  await database.close()
})

const metadata = (userId: string, ip: string | null, userAgent: string | null): EventMetadata => ({
  actor: { type: 'user', userId },
  ip,
  userAgent,
  correlationId: randomUUID(),
  causationId: null,
  at: '2030-01-01T00:00:00.000Z',
})

/** Records the address each event it handles came with. */
const seeing = (handles: ReadonlySet<string>, reads?: ReadonlySet<string>) => {
  const seen: [string, string | null][] = []
  const projection: Projection = {
    name: 'seeing',
    tables: [],
    handles,
    ...(reads ? { readsPersonalMetadata: reads } : {}),
    apply: async (_, event) => void seen.push([event.type, event.metadata.ip]),
  }
  return { projection, seen }
}

it('opens the metadata of the types some projection of the group reads it of, and no other', async () => {
  const store = withPersonalDataEncryption(
    createSqlEventStore(database.db, { singleBackend: true }),
    createKeyring(database.db, 'metadata-reads-secret-0123456789abcdefgh'),
  )
  const event = (type: string) => ({
    id: randomUUID(),
    type,
    data: { userId: 'u1', sessionId: 's1', email: 'u1@example.com' },
    metadata: metadata('u1', IP, BROWSER),
  })
  await store.appendToStream('user-u1', [event('user.registered'), event('session.started')], {
    expectedVersion: 'no_stream',
  })
  const both = new Set(['user.registered', 'session.started'])
  const one = seeing(both, new Set(['user.registered']))
  await replay({ db: database.db, store, projections: [one.projection] })
  expect(one.seen).toEqual([
    ['user.registered', IP],
    ['session.started', null],
  ])

  // A projection that declares nothing reads the metadata of every type it handles.
  const again = seeing(both, new Set(['user.registered']))
  const undeclared = seeing(new Set(['session.started']))
  await replay({ db: database.db, store, projections: [again.projection, undeclared.projection] })
  expect(again.seen).toEqual([
    ['user.registered', IP],
    ['session.started', IP],
  ])
  await store.close()
})

/** Data that answers any field with text, so a projection that acts on the event finds what it reads. */
const anyData = new Proxy({}, { get: (_, field) => (typeof field === 'string' ? `x-${field}` : undefined) })

const recorded = (type: string, id: string, ip: string | null, userAgent: string | null): RecordedEvent =>
  ({
    id,
    type,
    data: anyData,
    metadata: metadata(USER, ip, userAgent),
    streamId: 's',
    streamVersion: 1,
    position: { tx: 1n, seq: 1n },
    recordedAt: new Date('2030-01-01T00:00:00.000Z'),
  }) as unknown as RecordedEvent

/** The user the events are about, so that projections that record only for a known user record. */
const user = {
  ...recorded('user.registered', randomUUID(), null, null),
  data: {
    userId: USER,
    email: 'x@example.com',
    name: 'X',
    image: null,
    emailVerified: false,
    credential: null,
  },
} as RecordedEvent

class RolledBack extends Error {}

/**
 * The projection's rows after applying the event to a database where its user exists (or why it
 * failed), all of it rolled back.
 */
const rowsAfter = async (db: Kysely<Database>, projection: Projection, event: RecordedEvent | null) => {
  let rows = ''
  const apply = async (trx: Transaction<Database>) => {
    await usersProjection.apply(trx, user)
    try {
      if (event) await projection.apply(trx, event)
    } catch (error) {
      rows = `failed: ${String(error)}`
      throw new RolledBack()
    }
    const tables = await Promise.all(
      projection.tables.map((table) => sql`select * from ${sql.table(table)}`.execute(trx)),
    )
    rows = JSON.stringify(tables.map(({ rows: all }) => all.map((row) => JSON.stringify(row)).sort()))
    throw new RolledBack()
  }
  await db
    .transaction()
    .execute(apply)
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error
    })
  return rows
}

it("leaves the same rows with or without the metadata's personal fields, for every type not declared", async () => {
  const differing: string[] = []
  let writing = 0
  for (const projection of readModelProjections) {
    const { handles = new Set(knownEventTypes()), readsPersonalMetadata } = projection
    if (!readsPersonalMetadata) continue
    const before = await rowsAfter(database.db, projection, null)
    for (const type of [...handles].filter((handled) => !readsPersonalMetadata.has(handled))) {
      const id = randomUUID()
      const withAddress = await rowsAfter(database.db, projection, recorded(type, id, IP, BROWSER))
      const without = await rowsAfter(database.db, projection, recorded(type, id, null, null))
      if (withAddress !== without) differing.push(`${projection.name} ${type}`)
      if (!withAddress.startsWith('failed') && withAddress !== before) writing += 1
    }
  }
  expect(differing).toEqual([])
  // Events that write rows were compared, not only failures.
  expect(writing).toBeGreaterThan(0)
})
