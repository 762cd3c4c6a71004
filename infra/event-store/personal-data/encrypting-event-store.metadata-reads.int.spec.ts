/// `readAll` over the encrypting store with `personalMetadataOf` (what a projector reads): the
/// metadata's personal fields are opened of the types asked for only, null in the others and never
/// decrypted; the data's personal fields, and an erased subject's `erased`, read as a full read has them.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import type { OpenDatabase } from '../../db/database.js'
import { type EventStore, type EventToAppend, type RecordedEvent, START } from '../event-store.js'
import { createSqlEventStore } from '../sql-event-store.js'
import { withPersonalDataEncryption } from './encrypting-event-store.js'
import { eraseSubject } from './erasure.js'
import { createKeyring } from './keyring.js'
import { metadataFrom, personalEvents } from './personal-events.fixture.js'

const SECRET = 'metadata-reads-test-secret-0123456789abcd'
const IP = '203.0.113.91'
const BROWSER = 'Mozilla/5.0 (Metadata Reads)'

const metadata = (userId: string | null) => metadataFrom({ ip: IP, userAgent: BROWSER }, userId)
const { registered, sessionStarted } = personalEvents({ ip: IP, userAgent: BROWSER })

/** An event whose data holds nothing sealed: only its metadata is. */
const revoked = (userId: string): EventToAppend => ({
  id: randomUUID(),
  type: 'session.revoked',
  data: { sessionId: `s-${userId}`, userId, reason: 'sign-out' },
  metadata: metadata(userId),
})

/** An event of no one: its metadata is not sealed at all. */
const unowned = (): EventToAppend => ({
  id: randomUUID(),
  type: 'test.unowned',
  data: {},
  metadata: metadata(null),
})

const isRegistered = (type: string) => type === 'user.registered'

/** The event as a full read has it, with its metadata's personal fields null. */
const unopened = (event: RecordedEvent | undefined): RecordedEvent | undefined =>
  event && { ...event, metadata: { ...event.metadata, ip: null, userAgent: null } }

describeEachDatabase('reading the sealed log opening the metadata of some types', (fresh) => {
  let database: OpenDatabase
  let store: EventStore
  /** Another process's store: it holds no plaintext of what `store` appended, so it decrypts. */
  let reader: EventStore
  beforeEach(async () => {
    database = await fresh()
    store = withPersonalDataEncryption(createSqlEventStore(database.db), createKeyring(database.db, SECRET))
    reader = withPersonalDataEncryption(createSqlEventStore(database.db), createKeyring(database.db, SECRET))
  })
  afterEach(async () => {
    await reader.close()
    await store.close()
    await database.close()
  })

  it("gives null metadata fields exactly for the types not asked for, and opens the data's as before", async () => {
    await store.appendToStream('user-u1', [registered('u1'), sessionStarted('u1')], {
      expectedVersion: 'no_stream',
    })
    await store.appendToStream('other', [unowned()], { expectedVersion: 'no_stream' })
    const all = await reader.readAll(START, 10)
    expect(all.map((event) => event.metadata.ip)).toEqual([IP, IP, IP])

    const read = await reader.readAll(START, 10, { personalMetadataOf: isRegistered })
    expect(read).toEqual([all[0], unopened(all[1]), unopened(all[2])])
    expect(read[1]?.data).toMatchObject({ ipAddress: IP, userAgent: BROWSER })
    expect(await reader.readAll(START, 10, { personalMetadataOf: () => true })).toEqual(all)
  })

  it('never decrypts the metadata it leaves unopened', async () => {
    const started = sessionStarted('u1')
    await store.appendToStream('user-u1', [registered('u1'), started], { expectedVersion: 'no_stream' })
    const all = await reader.readAll(START, 10)
    await sql`
      update tessera_events set metadata = jsonb_set(metadata, '{ip}', '"not-a-sealed-value"')
      where event_id = ${started.id}`.execute(database.db)
    await expect(reader.readAll(START, 10)).rejects.toThrow()
    expect(await reader.readAll(START, 10, { personalMetadataOf: isRegistered })).toEqual([
      all[0],
      unopened(all[1]),
    ])
  })

  it("still says an erased subject's events are erased", async () => {
    await store.appendToStream('user-u1', [registered('u1'), sessionStarted('u1'), revoked('u1')], {
      expectedVersion: 'no_stream',
    })
    await eraseSubject(createKeyring(database.db, SECRET), 'u1')
    const all = await reader.readAll(START, 10)
    expect(all.map((event) => event.metadata.erased)).toEqual([true, true, true])
    expect(await reader.readAll(START, 10, { personalMetadataOf: () => false })).toEqual(all)
  })
})
