/// The folded states `handle` keeps between commands: a command reads only the events appended
/// since, yet never decides on a state older than the log. Two handles on one store stand for two
/// processes; the encrypting store and two keyrings for an erasure made by another process.

import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, test } from 'vitest'
import { type SessionCommand, sessionDecider, sessionStream } from '../../domain/session/session.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import type { UserCommand } from '../../domain/user/user.commands.js'
import { userDecider, userStream } from '../../domain/user/user.js'
import {
  ConcurrencyError,
  type EventStore,
  type ReadStreamOptions,
} from '../../infra/event-store/event-store.js'
import { withPersonalDataEncryption } from '../../infra/event-store/personal-data/encrypting-event-store.js'
import { eraseSubject, stillReadable } from '../../infra/event-store/personal-data/erasure.js'
import { createKeyring } from '../../infra/event-store/personal-data/keyring.js'
import { createSqlEventStore } from '../../infra/event-store/sql-event-store.js'
import { freshPglite } from '../../tests/support/databases.js'
import { createHandle } from './handle.js'

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

const setOrganization = (organizationId: string): SessionCommand => ({
  type: 'set-active-organization',
  requestedBy: 'user-1',
  organizationId,
  teamId: null,
})

const revoke: SessionCommand = { type: 'revoke-session', requestedBy: 'user-1', reason: 'revoked' }

const opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close()
})

const database = async () => {
  const db = await freshPglite()
  opened.push(db)
  return db
}

/** A store that records what each `readStream` asked and how many events it answered. */
const recording = (store: EventStore) => {
  const reads: { stream: string; afterVersion: number | undefined; events: number }[] = []
  const recorded: EventStore = {
    ...store,
    async readStream(stream: string, options?: ReadStreamOptions) {
      const events = await store.readStream(stream, options)
      reads.push({ stream, afterVersion: options?.afterVersion, events: events.length })
      return events
    },
  }
  return { store: recorded, reads }
}

const projector = { waitFor: async () => true }
// No erasure in these stores: every personal field folded stays readable.
const readable = { stillReadable: async () => true }

// Fresh PGlite databases are slow to clone on a loaded machine.
describe('folded states kept between commands', { timeout: 180_000 }, () => {
  test("a second process's appends are folded into the first's next decision", async () => {
    const store = createSqlEventStore((await database()).db, { singleBackend: true })
    const first = recording(store)
    const one = createHandle({ store: first.store, projector, foldedStates: readable })
    const two = createHandle({ store, projector, foldedStates: readable })
    const stream = sessionStream('s-1')
    await one(sessionDecider, stream, start('s-1'), { metadata, newStream: true })
    await one(sessionDecider, stream, setOrganization('org-1'), { metadata })
    await one(sessionDecider, stream, setOrganization('org-2'), { metadata })

    // The other process ends the session after the first one kept its state (version 2).
    await two(sessionDecider, stream, revoke, { metadata })

    // Decided on the kept state alone, the first would record the choice on an active session;
    // with the tail read it sees the session ended, as a whole read would.
    const stale = one(sessionDecider, stream, setOrganization('org-3'), { metadata })
    await expect(stale).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    // And it read only from the version it had kept: the kept event and the two appended since.
    expect(first.reads.map((read) => read.afterVersion)).toEqual([undefined, 0, 1])
    expect(first.reads.at(-1)).toEqual({ stream, afterVersion: 1, events: 3 })
  })

  test('after a concurrent append, the retry reads the tail again and decides on it', async () => {
    const store = createSqlEventStore((await database()).db, { singleBackend: true })
    const stream = sessionStream('s-1')
    const warm = createHandle({ store, projector, foldedStates: readable })
    await warm(sessionDecider, stream, start('s-1'), { metadata, newStream: true })
    await warm(sessionDecider, stream, setOrganization('org-1'), { metadata })
    // Between this process's read and its append, another process revokes the session.
    let interfered = false
    const racing: EventStore = {
      ...store,
      async appendToStreams(appends) {
        if (!interfered) {
          interfered = true
          await createHandle({ store, projector })(sessionDecider, stream, revoke, { metadata })
        }
        return store.appendToStreams(appends)
      },
    }
    const retrying = createHandle({ store: racing, projector, foldedStates: readable })
    // Its first attempt decided on the kept state (active); the retry reads the revocation.
    await expect(
      retrying(sessionDecider, stream, setOrganization('org-2'), { metadata }),
    ).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    })
    expect(interfered).toBe(true)
    const types = (await store.readStream(stream)).map((event) => event.type)
    expect(types).toEqual(['session.started', 'session.active-organization-set', 'session.revoked'])
  })

  test('a log that is not the one folded (another database behind the store) is read whole again', async () => {
    const stores = [await database(), await database()].map((db) =>
      createSqlEventStore(db.db, { singleBackend: true }),
    )
    let current = stores[0] as EventStore
    const switching: EventStore = {
      ...current,
      readStream: (stream, options) => current.readStream(stream, options),
      appendToStreams: (appends) => current.appendToStreams(appends),
    }
    const handle = createHandle({ store: switching, projector, foldedStates: readable })
    const stream = sessionStream('s-1')
    await handle(sessionDecider, stream, start('s-1'), { metadata, newStream: true })
    await handle(sessionDecider, stream, setOrganization('org-1'), { metadata })
    // The other database holds a stream of that name too, longer, of another user's session: the
    // tail past the kept version alone (a refresh) would leave it user-1's.
    current = stores[1] as EventStore
    const other = createHandle({ store: current, projector })
    await other(sessionDecider, stream, { ...start('s-1'), userId: 'user-2' }, { metadata, newStream: true })
    const refresh: SessionCommand = {
      type: 'refresh-session',
      now: '2026-11-28T12:00:00.000Z',
      expiresAt: '2026-12-10T12:00:00.000Z',
    }
    expect((await other(sessionDecider, stream, refresh, { metadata })).events).toHaveLength(1)
    await expect(
      handle(sessionDecider, stream, setOrganization('org-2'), { metadata }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })

  test('a command pinned to the version `load` gave is decided on the kept state, never on a stale one', async () => {
    const store = createSqlEventStore((await database()).db, { singleBackend: true })
    const first = recording(store)
    const one = createHandle({ store: first.store, projector, foldedStates: readable })
    const two = createHandle({ store, projector, foldedStates: readable })
    const stream = sessionStream('s-1')
    await one(sessionDecider, stream, start('s-1'), { metadata, newStream: true })
    const loaded = await one.load(sessionDecider, stream)
    expect(loaded).toMatchObject({ version: 1, state: { status: 'active' } })
    const reads = first.reads.length
    // Pinned to the version loaded: decided on the kept state, without reading the stream again.
    await one(sessionDecider, stream, setOrganization('org-1'), { metadata, expectedVersion: 1 })
    expect(first.reads).toHaveLength(reads)

    // Another process ends the session after this one loaded it (version 2).
    await one.load(sessionDecider, stream)
    await two(sessionDecider, stream, revoke, { metadata })
    // The kept state is at 2 and still shows the session active: pinned to 2, the append fails
    // instead of recording a choice on an ended session; nothing is retried or written.
    const stale = one(sessionDecider, stream, setOrganization('org-2'), { metadata, expectedVersion: 2 })
    await expect(stale).rejects.toBeInstanceOf(ConcurrencyError)
    const types = (await store.readStream(stream)).map((event) => event.type)
    expect(types).toEqual(['session.started', 'session.active-organization-set', 'session.revoked'])
    // A load now reads the revocation; a command pinned to an older version than the kept one is
    // decided on the stream as it is (nothing kept at that version): refused, the session ended.
    expect((await one.load(sessionDecider, stream)).version).toBe(3)
    await expect(
      one(sessionDecider, stream, setOrganization('org-3'), { metadata, expectedVersion: 2 }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })

  test('without a way to tell an erasure, a state holding personal fields is not kept', async () => {
    const store = createSqlEventStore((await database()).db, { singleBackend: true })
    const recorded = recording(store)
    const handle = createHandle({ store: recorded.store, projector })
    const stream = sessionStream('s-1')
    await handle(sessionDecider, stream, start('s-1'), { metadata, newStream: true })
    await handle(sessionDecider, stream, setOrganization('org-1'), { metadata })
    await handle(sessionDecider, stream, setOrganization('org-2'), { metadata })
    // session.started declares personal fields (ip, user agent): each command reads it whole.
    expect(recorded.reads.map((read) => read.afterVersion)).toEqual([undefined, undefined])
  })
})

describe('folded states and erasure', { timeout: 180_000 }, () => {
  const SECRET = 'folded-states-test-secret-0123456789'
  const register = (userId: string): UserCommand => ({
    type: 'register-user',
    userId,
    email: 'ada@example.com',
    name: 'Ada',
    image: null,
    credential: null,
    sendVerification: false,
    callbackURL: null,
  })

  test("a kept state holding a person's address is not reused once another process erased them", async () => {
    const db = await database()
    const sql = createSqlEventStore(db.db, { singleBackend: true })
    // This process looks its keys up every time (no key cache), as it does once its cache expires.
    const keyring = createKeyring(db.db, SECRET, { cacheTtlMs: 0 })
    const store = withPersonalDataEncryption(sql, keyring)
    const handle = createHandle({ store, projector, foldedStates: { stillReadable: stillReadable(keyring) } })
    const userId = randomUUID()
    await handle(userDecider, userStream(userId), register(userId), { metadata, newStream: true })
    const renamed = await handle(
      userDecider,
      userStream(userId),
      { type: 'update-profile', name: 'Ada L' },
      {
        metadata,
      },
    )
    expect(renamed.state).toMatchObject({ email: 'ada@example.com' })

    // Another process (its own keyring) destroys the person's key.
    await eraseSubject(createKeyring(db.db, SECRET), userId)

    // A command that changes nothing answers the state it decided on.
    const after = await handle(
      userDecider,
      userStream(userId),
      { type: 'update-profile', image: null },
      {
        metadata,
      },
    )
    expect(after.events).toEqual([])
    expect(after.state).toMatchObject({ status: 'active', email: null, name: null })
  })
})
