/// A projection that declares the event types it handles is applied to those only (the projector
/// passes the others over without a call), and each read-model projection's declaration names every
/// type its `apply` acts on: given an event of any other known type, it sends no statement.

import { randomUUID } from 'node:crypto'
import type { KyselyPlugin } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { knownEventTypes } from '../../domain/events.js'
import type { OpenDatabase } from '../../infra/db/database.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPglite } from '../../tests/support/databases.js'
import { testMetadata } from '../../tests/support/projector-fixtures.js'
import { readModelProjections } from '../all.js'
import type { Projection } from '../projection.js'
import { replay } from './projector.js'

let database: OpenDatabase
beforeEach(async () => {
  database = await freshPglite()
})
afterEach(async () => {
  await database.close()
})

/** Records the type of every event it is given. */
const seeing = (handles?: ReadonlySet<string>): Projection & { seen: string[] } => {
  const seen: string[] = []
  return {
    name: 'seeing',
    tables: [],
    ...(handles ? { handles } : {}),
    seen,
    apply: async (_, event) => void seen.push(event.type),
  }
}

it('applies a projection that declares its types to events of those types only', async () => {
  const store = createSqlEventStore(database.db, { singleBackend: true })
  const event = (type: string) => ({ id: randomUUID(), type, data: {}, metadata: testMetadata() })
  await store.appendToStream('s', [event('test.a'), event('test.b'), event('test.a')], {
    expectedVersion: 'any',
  })
  const [declaring, undeclared] = [seeing(new Set(['test.a'])), seeing()]
  await replay({ db: database.db, store, projections: [declaring, undeclared] })
  expect(declaring.seen).toEqual(['test.a', 'test.a'])
  expect(undeclared.seen).toEqual(['test.a', 'test.b', 'test.a'])
  await store.close()
})

/** Data that answers any field with text, so a projection that acts on the event finds what it reads. */
const anyData = new Proxy({}, { get: (_, field) => (typeof field === 'string' ? `x-${field}` : undefined) })

const recorded = (type: string): RecordedEvent =>
  ({
    id: randomUUID(),
    type,
    data: anyData,
    metadata: testMetadata(),
    streamId: 's',
    streamVersion: 1,
    position: { tx: 1n, seq: 1n },
    recordedAt: new Date(),
  }) as unknown as RecordedEvent

it("sends no statement for an event of a type outside a read-model projection's declaration", async () => {
  let statements = 0
  const counting: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => {
      statements += 1
      return result
    },
  }
  const db = database.db.withPlugin(counting)
  const acting: string[] = []
  for (const projection of readModelProjections) {
    const { handles } = projection
    if (!handles) continue
    for (const type of knownEventTypes().filter((known) => !handles.has(known))) {
      statements = 0
      const failed = await db
        .transaction()
        .execute((trx) => projection.apply(trx, recorded(type)))
        .then(
          () => false,
          () => true,
        )
      if (failed || statements > 0) acting.push(`${projection.name} ${type}`)
    }
  }
  expect(acting).toEqual([])
})
