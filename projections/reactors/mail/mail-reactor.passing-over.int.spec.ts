/// The mail reactor opens only the events it mails for: over the encrypting store, an event of
/// another type is passed over without a decryption. The proof is an event whose sealed field can no
/// longer be opened (it fails as a malformed value would): opening it would stop the reactor, and a
/// reactor that passes it over mails what follows it. The reactor reads through a store of its own,
/// as another process would: the store that appended the event would take the plaintext it sealed.

import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { userStream } from '../../../domain/user/user.js'
import type { OpenDatabase } from '../../../infra/db/database.js'
import { type EventToAppend, START } from '../../../infra/event-store/event-store.js'
import { withPersonalDataEncryption } from '../../../infra/event-store/personal-data/encrypting-event-store.js'
import { createKeyring } from '../../../infra/event-store/personal-data/keyring.js'
import { createSqlEventStore } from '../../../infra/event-store/sql-event-store.js'
import { freshPglite } from '../../../tests/support/databases.js'
import { startSmtpSink } from '../../../tests/support/smtp-sink.js'
import { readModelProjections } from '../../all.js'
import { createProjector } from '../../runner/projector.js'
import { links, metadataAt, smtpTransport } from './mail-reactor.fixture.js'
import { createMailReactor } from './mail-reactor.js'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const sealedLog = async () => {
  const database: OpenDatabase = await freshPglite()
  const opened = () =>
    withPersonalDataEncryption(
      createSqlEventStore(database.db),
      createKeyring(database.db, 'mail-reactor-sealed-log-secret-0123456789'),
    )
  const store = opened()
  const reader = opened()
  const projector = createProjector({ db: database.db, store, projections: readModelProjections })
  cleanup.push(async () => {
    await projector.stop()
    await reader.close()
    await store.close()
    await database.close()
  })
  return { db: database.db, store, reader, projector }
}

const event = (type: string, data: object): EventToAppend => ({
  id: randomUUID(),
  type,
  data,
  metadata: metadataAt(new Date()),
})

describe('mail reactor over sealed personal data', () => {
  it('passes over, unopened, an event it sends no mail for', async () => {
    const { db, store, reader, projector } = await sealedLog()
    const smtp = await startSmtpSink()
    cleanup.push(() => smtp.close())
    await projector.start()

    const userId = randomUUID()
    const email = 'ivy@example.com'
    const registered = event('user.registered', {
      userId,
      email,
      name: 'Ivy Moss',
      image: null,
      emailVerified: false,
      credential: null,
    })
    const { position } = await store.appendToStream(userStream(userId), [registered], {
      expectedVersion: 'no_stream',
    })
    expect(await projector.waitFor(position, 5_000)).toBe(true)
    // The read models have the user; from now on the registration's sealed ip cannot be opened.
    await sql`
      update tessera_events set metadata = jsonb_set(metadata, '{ip}', '"not-a-sealed-value"')
      where event_id = ${registered.id}`.execute(db)
    await expect(reader.readAll(START, 10)).rejects.toThrow()

    const reactor = createMailReactor({
      db,
      store: reader,
      links,
      lock: 'in-process',
      transport: smtpTransport(smtp.url),
      onReadModelsAdvance: projector.onApplied,
      retry: { initialDelayMs: 20, maxDelayMs: 100 },
      pollIntervalMs: 50,
    })
    cleanup.push(() => reactor.stop())
    await reactor.start()
    const requested = event('user.verification-email-requested', { userId, email, callbackURL: null })
    await store.appendToStream(userStream(userId), [requested], { expectedVersion: 1 })

    const mail = await smtp.waitForMail(undefined, 5_000)
    expect(mail.to).toEqual([email])
    expect(mail.headers.get('x-idempotency-key')).toBe(requested.id)
    expect(mail.text).toContain('Hello Ivy Moss,')
  })
})
