/// What the event store contract suite needs from an adapter, and the small helpers its tests share.

import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach } from 'vitest'
import type { OpenDatabase } from '../db/database.js'
import {
  type EventStore,
  type EventToAppend,
  type GlobalPosition,
  type RecordedEvent,
  START,
} from './event-store.js'

/** An append whose transaction has done its writes and waits to be committed or rolled back. */
export type HeldAppend = { commit(): Promise<void>; rollback(): Promise<void> }

export type EventStoreFixture = {
  store: EventStore
  db: OpenDatabase
  /**
   * Appends `event` to `stream` the way the adapter does, on a connection of its own, and keeps the
   * transaction open. Only back ends where writers interleave (PostgreSQL) provide it.
   */
  holdOpenAppend?: (stream: string, event: EventToAppend) => Promise<HeldAppend>
  /** A second store on the same database, standing in for another process. */
  openOtherProcess?: () => Promise<{ store: EventStore; close(): Promise<void> }>
}

export type EventStoreFactory = () => Promise<EventStoreFixture>

/** A fresh fixture for every test, closed after it. */
export const useFixture = (factory: EventStoreFactory): (() => EventStoreFixture) => {
  let current: EventStoreFixture | undefined
  beforeEach(async () => {
    current = await factory()
  })
  afterEach(async () => {
    const fixture = current
    current = undefined
    if (!fixture) return
    await fixture.store.close()
    await fixture.db.close()
  })
  return () => {
    if (!current) throw new Error('The event store fixture is only available inside a test')
    return current
  }
}

let counter = 0

export const anEvent = (overrides: Partial<EventToAppend> = {}): EventToAppend => {
  counter += 1
  return {
    id: randomUUID(),
    type: 'test.happened',
    data: { n: counter },
    metadata: {
      actor: { type: 'system' },
      ip: null,
      userAgent: null,
      correlationId: randomUUID(),
      causationId: null,
      at: new Date().toISOString(),
    },
    ...overrides,
  }
}

export const idsOf = (events: readonly { id: string }[]): string[] => events.map((event) => event.id)

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Pages through `readAll` like a projector until at least `count` events came back, then reads on
 * to the end. On PostgreSQL transaction ids are shared by every database of the server, so a write
 * in another test's database can hold `readAll` back for a moment; hence the short wait.
 */
export const readAtLeast = async (
  store: EventStore,
  count: number,
  pageSize = 1000,
): Promise<RecordedEvent[]> => {
  const all: RecordedEvent[] = []
  let after: GlobalPosition = START
  const deadline = Date.now() + CATCH_UP_MS
  for (;;) {
    const page = await store.readAll(after, pageSize)
    all.push(...page)
    after = page.at(-1)?.position ?? after
    if (page.length > 0) continue
    if (all.length >= count || Date.now() > deadline) return all
    await sleep(5)
  }
}

export const CATCH_UP_MS = 10_000

/** True when, inside every stream, versions appear as 1, 2, 3, … in the given order. */
export const streamVersionsInOrder = (events: readonly RecordedEvent[]): boolean => {
  const versions = new Map<string, number>()
  for (const event of events) {
    const expected = (versions.get(event.streamId) ?? 0) + 1
    if (event.streamVersion !== expected) return false
    versions.set(event.streamId, expected)
  }
  return true
}
