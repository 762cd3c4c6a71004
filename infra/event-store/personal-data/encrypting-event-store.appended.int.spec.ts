/// What this process appended is read back from the plaintext it sealed (appended-plaintext.ts), not
/// decrypted again: a stored value that no longer opens shows it. Another process decrypts as
/// before, and an erasure, appended here or read from another process, drops what was held.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import type { OpenDatabase } from '../../db/database.js'
import { type EventStore, type EventToAppend, START } from '../event-store.js'
import { createSqlEventStore } from '../sql-event-store.js'
import { type AppendedPlaintext, createAppendedPlaintext } from './appended-plaintext.js'
import { withPersonalDataEncryption } from './encrypting-event-store.js'
import { eraseInline } from './erasure.js'
import { createKeyring } from './keyring.js'

const SECRET = 'appended-plaintext-test-secret-0123456789'
const IP = '198.51.100.23'
const UA = 'Mozilla/5.0 (Held Browser 3)'

const metadata = (userId: string): EventMetadata => ({
  actor: { type: 'user', userId },
  ip: IP,
  userAgent: UA,
  correlationId: randomUUID(),
  causationId: null,
  at: '2030-01-01T00:00:00.000Z',
})

const sessionStarted = (userId: string): EventToAppend => ({
  id: randomUUID(),
  type: 'session.started',
  data: {
    sessionId: `s-${userId}`,
    userId,
    tokenHash: 'cd'.repeat(32),
    expiresAt: '2030-01-08T00:00:00.000Z',
    ipAddress: IP,
    userAgent: UA,
    rememberMe: false,
  },
  metadata: metadata(userId),
})

const deleted = (userId: string): EventToAppend => ({
  id: randomUUID(),
  type: 'user.deleted',
  data: { userId, email: `${userId}@example.com` },
  metadata: metadata(userId),
})

describeEachDatabase('plaintext of events this process appended', (fresh) => {
  let database: OpenDatabase
  let held: AppendedPlaintext
  let store: EventStore
  /** Another process's store on the same database: it holds nothing this one appended. */
  let other: EventStore
  beforeEach(async () => {
    database = await fresh()
    held = createAppendedPlaintext()
    const sqlStore = () => createSqlEventStore(database.db, { inline: eraseInline })
    store = withPersonalDataEncryption(sqlStore(), createKeyring(database.db, SECRET), { appended: held })
    other = withPersonalDataEncryption(sqlStore(), createKeyring(database.db, SECRET))
  })
  afterEach(async () => {
    await store.close()
    await other.close()
    await database.close()
  })

  /** Every sealed field of the event replaced by a value that opens under no key. */
  const breakSealedValues = (id: string) =>
    sql`update tessera_events
        set data = data || '{"ipAddress":"broken","userAgent":"broken"}'::jsonb,
            metadata = metadata || '{"ip":"broken","userAgent":"broken"}'::jsonb
        where event_id = ${id}`.execute(database.db)

  it('reads its own appended events from their plaintext, at their place in the log, not decrypting them', async () => {
    const started = sessionStarted('u1')
    const { position } = await store.appendToStream('session-s-u1', [started], {
      expectedVersion: 'no_stream',
    })
    await breakSealedValues(started.id)

    const [read] = await store.readAll(START, 10)
    expect(read).toMatchObject({ id: started.id, streamVersion: 1, position })
    expect({ data: read?.data, metadata: read?.metadata }).toEqual({
      data: started.data,
      metadata: started.metadata,
    })
    // Each read gets its own objects: one reader's change is never seen by the next.
    const [again] = await store.readStream('session-s-u1')
    expect(again?.data).toEqual(started.data)
    expect(again?.data).not.toBe(read?.data)

    // Another process decrypts what is stored, and that no longer opens.
    await expect(other.readAll(START, 10)).rejects.toThrow()
  })

  it('decrypts what another process appended', async () => {
    const started = sessionStarted('u2')
    await other.appendToStream('session-s-u2', [started], { expectedVersion: 'no_stream' })
    expect(held.size()).toBe(0)
    expect((await store.readAll(START, 10))[0]?.data).toEqual(started.data)
    await breakSealedValues(started.id)
    await expect(store.readAll(START, 10)).rejects.toThrow()
  })

  it('drops what it holds of a person erased here, and reads their events as erased', async () => {
    await store.appendToStream('session-s-u3', [sessionStarted('u3')], { expectedVersion: 'no_stream' })
    await store.appendToStream('session-s-u4', [sessionStarted('u4')], { expectedVersion: 'no_stream' })
    expect(held.size('u3')).toBe(1)
    await store.appendToStream('user-u3', [deleted('u3')], { expectedVersion: 'any' })
    expect(held.size('u3')).toBe(0)
    expect(held.size('u4')).toBe(1)
    const [erased, kept] = await store.readAll(START, 10)
    expect(erased?.data).toMatchObject({ ipAddress: null, userAgent: null })
    expect(erased?.metadata).toMatchObject({ ip: null, userAgent: null, erased: true })
    expect(kept?.data).toMatchObject({ ipAddress: IP, userAgent: UA })
  })

  it('drops what it holds of a person another process erased once it reads the erasure', async () => {
    const started = sessionStarted('u5')
    await store.appendToStream('session-s-u5', [started], { expectedVersion: 'no_stream' })
    await other.appendToStream('user-u5', [deleted('u5')], { expectedVersion: 'any' })
    expect(held.size('u5')).toBe(1)
    const [read] = await store.readAll(START, 10)
    expect(held.size('u5')).toBe(0)
    expect(read?.metadata.erased).toBe(true)
    expect(read?.data).toMatchObject({ ipAddress: null, userAgent: null })
  })
})
