/// What the event store contract suite needs from an adapter, and the small helpers its tests share.

import { randomUUID } from 'node:crypto'
import { afterEach, beforeEach, expect } from 'vitest'
import type { OpenDatabase } from '../db/database.js'
import {
  comparePositions,
  type EventStore,
  type EventToAppend,
  formatPosition,
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
 * One `readAll` page, checked on the way: a page that is too long, out of order, or that repeats the
 * position it was asked to start after is a contract failure (and would make a reader loop forever).
 */
export const readPage = async (
  store: EventStore,
  after: GlobalPosition,
  limit: number,
): Promise<RecordedEvent[]> => {
  const page = await store.readAll(after, limit)
  if (page.length > limit) throw new Error(`readAll returned ${page.length} events for a limit of ${limit}`)
  let previous = after
  for (const event of page) {
    if (comparePositions(previous, event.position) >= 0)
      throw new Error(
        `readAll after ${formatPosition(after)} returned ${formatPosition(event.position)} out of order`,
      )
    previous = event.position
  }
  return page
}

/** A reader that keeps a checkpoint, as a projector does, and remembers everything it was given. */
export const checkpointedReader = (store: EventStore, pageSize: number) => {
  const seen: RecordedEvent[] = []
  let checkpoint: GlobalPosition = START
  const poll = async (): Promise<RecordedEvent[]> => {
    const page = await readPage(store, checkpoint, pageSize)
    seen.push(...page)
    checkpoint = page.at(-1)?.position ?? checkpoint
    return page
  }
  const drain = async (): Promise<void> => {
    while ((await poll()).length > 0) {}
  }
  return {
    seen,
    poll,
    drain,
    /**
     * Drains until it has seen `count` events. On PostgreSQL transaction ids are shared by every
     * database of the server, so a write in another test's database can hold `readAll` back for a
     * moment; hence the short wait.
     */
    async catchUp(count: number): Promise<void> {
      const deadline = Date.now() + CATCH_UP_MS
      await drain()
      while (seen.length < count && Date.now() < deadline) {
        await sleep(5)
        await drain()
      }
    },
  }
}

const CATCH_UP_MS = 10_000

/** Every event, paging through `readAll` until at least `count` came back (see `catchUp`). */
export const readAtLeast = async (
  store: EventStore,
  count: number,
  pageSize = 1000,
): Promise<RecordedEvent[]> => {
  const reader = checkpointedReader(store, pageSize)
  await reader.catchUp(count)
  return reader.seen
}

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

/** Fails unless `store` hears, within a few seconds, of appends made by another process. */
export const expectToHearOtherProcess = async (
  store: EventStore,
  openOtherProcess: NonNullable<EventStoreFixture['openOtherProcess']>,
): Promise<void> => {
  let heard = 0
  const unsubscribe = store.subscribe(() => {
    heard += 1
  })
  const other = await openOtherProcess()
  try {
    // The listening connection comes up in the background; keep appending until one is heard.
    for (let attempt = 0; attempt < 100 && heard === 0; attempt += 1) {
      await other.store.appendToStream('other', [anEvent()], { expectedVersion: 'any' })
      await sleep(50)
    }
  } finally {
    unsubscribe()
    await other.close()
  }
  expect(heard).toBeGreaterThan(0)
}
