/// `readAllOpening` over the encrypting store: the events passed over are never decrypted (not even
/// their subject's key is looked up), the ones opened read as `readAll` has them, and an erasure
/// passed over still ends this process's trust in the erased key.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import type { OpenDatabase } from '../../db/database.js'
import { type EventStore, isOpened, START } from '../event-store.js'
import { createSqlEventStore } from '../sql-event-store.js'
import { withPersonalDataEncryption } from './encrypting-event-store.js'
import { eraseSubject } from './erasure.js'
import { createKeyring, type Keyring } from './keyring.js'
import { metadataFrom, personalEvents } from './personal-events.fixture.js'

const SECRET = 'passing-over-test-secret-0123456789abcdef'
const IP = '203.0.113.78'

const ORIGIN = { ip: IP, userAgent: 'Mozilla/5.0 (Passing Over)' }
const metadata = (userId: string) => metadataFrom(ORIGIN, userId)
const { registered, sessionStarted } = personalEvents(ORIGIN)

/** The keyring, recording which subjects' keys were looked up and which were forgotten. */
const watched = (keyring: Keyring) => {
  const looked: string[] = []
  const forgotten: string[] = []
  const watching: Keyring = {
    ...keyring,
    existingKeys: (subjects) => {
      const asked = [...subjects]
      looked.push(...asked)
      return keyring.existingKeys(asked)
    },
    forget: (subject) => {
      forgotten.push(subject)
      keyring.forget(subject)
    },
  }
  return { watching, looked, forgotten }
}

const isSession = (type: string) => type === 'session.started'

describeEachDatabase('reading the sealed log opening some types', (fresh) => {
  let database: OpenDatabase
  let keyring: ReturnType<typeof watched>
  let store: EventStore
  beforeEach(async () => {
    database = await fresh()
    keyring = watched(createKeyring(database.db, SECRET))
    store = withPersonalDataEncryption(createSqlEventStore(database.db), keyring.watching)
  })
  afterEach(async () => {
    await store.close()
    await database.close()
  })

  it('never opens an event passed over, and opens the others as readAll does', async () => {
    const first = registered('u1')
    await store.appendToStream('user-u1', [first, sessionStarted('u1')], { expectedVersion: 'no_stream' })
    await store.appendToStream('user-u2', [registered('u2')], { expectedVersion: 'no_stream' })
    const all = await store.readAll(START, 10)
    keyring.looked.length = 0

    const entries = await store.readAllOpening(START, 10, isSession)
    expect(entries.filter(isOpened)).toEqual(all.filter((event) => isSession(event.type)))
    expect(entries.map((entry) => entry.id)).toEqual(all.map((event) => event.id))
    expect(keyring.looked).toEqual(['u1'])

    // A sealed value that no longer opens: reading it fails, passing it over does not. (Read as
    // another process does: the store that appended it takes the plaintext it sealed.)
    await sql`
      update tessera_events set data = jsonb_set(data, '{email}', '"not-a-sealed-value"')
      where event_id = ${first.id}`.execute(database.db)
    const reader = withPersonalDataEncryption(createSqlEventStore(database.db), keyring.watching)
    await expect(reader.readAll(START, 10)).rejects.toThrow()
    const again = await reader.readAllOpening(START, 10, isSession)
    expect(again.filter(isOpened)).toEqual(all.filter((event) => isSession(event.type)))
  })

  it('passes over the events of an erased subject, and an erasure it passes over still forgets the key', async () => {
    await store.appendToStream('user-u1', [registered('u1'), sessionStarted('u1')], {
      expectedVersion: 'no_stream',
    })
    await eraseSubject(keyring.watching, 'u1')
    const entries = await store.readAllOpening(START, 10, () => false)
    expect(entries.map((entry) => [entry.type, isOpened(entry)])).toEqual([
      ['user.registered', false],
      ['session.started', false],
    ])

    // Another process erases u2 while this one holds u2's key in its cache.
    await store.appendToStream('user-u2', [registered('u2')], { expectedVersion: 'no_stream' })
    await store.readAll(START, 10)
    const other = withPersonalDataEncryption(
      createSqlEventStore(database.db),
      createKeyring(database.db, SECRET),
    )
    await eraseSubject(createKeyring(database.db, SECRET), 'u2')
    // Nothing in it to seal: the key it would need is already gone.
    const deleted = {
      id: randomUUID(),
      type: 'user.deleted',
      data: { userId: 'u2' },
      metadata: { ...metadata('u2'), ip: null, userAgent: null },
    }
    await other.appendToStream('user-u2', [deleted], { expectedVersion: 1 })
    await other.close()
    keyring.forgotten.length = 0
    const passed = await store.readAllOpening(START, 10, isSession)
    expect(passed.at(-1)).toMatchObject({ id: deleted.id, type: 'user.deleted' })
    expect(keyring.forgotten).toContain('u2')
    expect((await store.readStream('user-u2'))[0]?.metadata.erased).toBe(true)
  })
})
