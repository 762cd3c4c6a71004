/// A stream read through the encrypting store over the SQL store with `keysWithStreams`: the data
/// keys its events need come in the stream's statement (issue 33: the second step of a sign-in opens
/// the TOTP secret in one round trip, not two), and an erasure reads as one all the same.

import { randomUUID } from 'node:crypto'
import { type Kysely, type KyselyPlugin, RawNode } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import type { OpenDatabase } from '../../db/database.js'
import type { EventToAppend } from '../event-store.js'
import { createSqlEventStore } from '../sql-event-store.js'
import { withPersonalDataEncryption } from './encrypting-event-store.js'
import { eraseSubject } from './erasure.js'
import { createKeyring } from './keyring.js'

const SECRET = 'keyed-reads-test-secret-0123456789abcdef'
const IP = '203.0.113.9'

const metadata = (userId: string): EventMetadata => ({
  actor: { type: 'user', userId },
  ip: IP,
  userAgent: 'Personal Browser',
  correlationId: randomUUID(),
  causationId: null,
  at: '2030-01-01T00:00:00.000Z',
})

const secretCreated = (userId: string): EventToAppend => ({
  id: randomUUID(),
  type: 'two-factor.totp-secret-created',
  data: { userId, secret: 'JBSWY3DPEHPK3PXP', backupCodeHashes: [], createdAt: '2030-01-01T00:00:00.000Z' },
  metadata: metadata(userId),
})

/** The statements sent that read or write the data keys' table on their own. */
const keyStatements = (sent: string[]) =>
  sent.filter((text) => /^\s*select subject.*tessera_data_keys/s.test(text))

// biome-ignore lint/suspicious/noExplicitAny: the stores take an untyped database
const recording = (db: Kysely<any>) => {
  const sent: string[] = []
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (RawNode.is(node)) sent.push(node.sqlFragments.join('?'))
      return node
    },
    transformResult: async ({ result }) => result,
  }
  return { db: db.withPlugin(plugin), sent }
}

describeEachDatabase('stream reads with their data keys', (fresh) => {
  let database: OpenDatabase
  beforeEach(async () => {
    database = await fresh()
  })
  afterEach(() => database.close())

  /** A store as another process opens it: nothing cached, nothing held of what it appended. */
  const reader = () => {
    const { db, sent } = recording(database.db)
    const keyring = createKeyring(db, SECRET)
    const store = withPersonalDataEncryption(createSqlEventStore(db, { keysWithStreams: true }), keyring)
    return { store, keyring, sent }
  }

  it("opens a stream's sealed fields with the key read in the stream's statement", async () => {
    const writer = reader().store
    await writer.appendToStream('two-factor-u1', [secretCreated('u1')], { expectedVersion: 'no_stream' })
    const { store, sent } = reader()
    const [event] = await store.readStream('two-factor-u1')
    expect(event?.data).toMatchObject({ secret: 'JBSWY3DPEHPK3PXP' })
    expect(event?.metadata).toMatchObject({ ip: IP })
    expect(keyStatements(sent)).toEqual([])
    // The key read with the stream is cached: sealing the person's next event reads no key either.
    await store.appendToStream('two-factor-u1', [secretCreated('u1')], { expectedVersion: 1 })
    expect(
      sent.filter((text) => text.includes('tessera_data_keys') && !text.includes('tessera_events')),
    ).toEqual([])
  })

  it("reads an erased person's events as erased, the tombstone read with them", async () => {
    const writer = reader()
    await writer.store.appendToStream('two-factor-u1', [secretCreated('u1')], {
      expectedVersion: 'no_stream',
    })
    await eraseSubject(writer.keyring, 'u1')
    const { store, sent } = reader()
    const [event] = await store.readStream('two-factor-u1')
    expect(event?.data).toMatchObject({ secret: null })
    expect(event?.metadata).toMatchObject({ ip: null, erased: true })
    expect(keyStatements(sent)).toEqual([])
  })

  it('a key read before an erasure this process saw is used for that read, never cached', async () => {
    const writer = reader().store
    await writer.appendToStream('two-factor-u1', [secretCreated('u1')], { expectedVersion: 'no_stream' })
    const { keyring, sent } = reader()
    const [row] = (await database.db
      .selectFrom('tessera_data_keys')
      .select(['subject', 'wrapped_key', 'wrapped_by'])
      .execute()) as { subject: string; wrapped_key: string | null; wrapped_by: string | null }[]
    const mark = keyring.mark()
    keyring.forget('u1')
    const keys = await keyring.existingKeys(['u1'], { rows: new Map([['u1', row ?? null]]), mark })
    expect(keys.get('u1')).toHaveLength(32)
    expect(keyStatements(sent)).toEqual([])
    await keyring.existingKey('u1')
    expect(keyStatements(sent)).toHaveLength(1)
  })
})
