/// Test parts for the mail reactor: a log with a projector over real read models, users and mail
/// events appended the way the domain writes them, reactors that are stopped after the test, and
/// an SMTP server that refuses chosen recipients for good.

import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { SMTPServer } from 'smtp-server'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import type { UserEvent } from '../../../domain/user/user.events.js'
import { userStream } from '../../../domain/user/user.js'
import type { OpenDatabase } from '../../../infra/db/database.js'
import type { EventStore } from '../../../infra/event-store/event-store.js'
import { createSqlEventStore } from '../../../infra/event-store/sql-event-store.js'
import { createSmtpTransport } from '../../../infra/mail/smtp-transport.js'
import { readModelProjections } from '../../all.js'
import type { Database } from '../../database.js'
import { createProjector, type Projector } from '../../runner/projector.js'
import type { MailLinkSettings } from './compose-mail.js'
import { createMailReactor, type MailReactor, type MailReactorOptions } from './mail-reactor.js'

export const SECRET = 'mail-reactor-test-secret-0123456789abcdef'
export const BASE_URL = 'https://accounts.example.test'
export const FROM = 'Tessera <no-reply@tessera.test>'
export const links: MailLinkSettings = {
  baseUrl: BASE_URL,
  basePath: '/api/auth',
  secret: SECRET,
  emailTokenExpiresIn: 3600,
}

export const metadataAt = (at: Date): EventMetadata => ({
  actor: { type: 'anonymous' },
  ip: '127.0.0.1',
  userAgent: 'vitest',
  correlationId: randomUUID(),
  causationId: null,
  at: at.toISOString(),
})

/** Where an event landed, so a test can compare it with what the reactor did. */
export type Appended = { id: string; at: Date }

export type LogHarness = {
  db: Kysely<Database>
  store: EventStore
  projector: Projector
  /** Registers a user (as sign-up would) and returns its id. */
  registerUser(input: { name: string; email: string }): Promise<string>
  /** Appends one event to its user's stream. */
  append(event: UserEvent | { type: string; data: object & { userId: string } }, at?: Date): Promise<Appended>
  reactor(options: Partial<MailReactorOptions> & Pick<MailReactorOptions, 'transport'>): MailReactor
  cleanup(): Promise<void>
}

export const startLog = async (
  database: OpenDatabase,
  lock: MailReactorOptions['lock'] = 'in-process',
): Promise<LogHarness> => {
  const store = createSqlEventStore(database.db)
  const projector = createProjector({ db: database.db, store, projections: readModelProjections })
  const reactors: MailReactor[] = []
  const append: LogHarness['append'] = async (event, at = new Date()) => {
    const id = randomUUID()
    await store.appendToStream(userStream(event.data.userId), [{ ...event, id, metadata: metadataAt(at) }], {
      expectedVersion: 'any',
    })
    return { id, at }
  }
  return {
    db: database.db,
    store,
    projector,
    append,
    async registerUser({ name, email }) {
      const userId = randomUUID()
      const data = { userId, email, name, image: null, emailVerified: false, credential: null }
      await append({ type: 'user.registered', data })
      return userId
    },
    reactor(options) {
      const reactor = createMailReactor({
        db: database.db,
        store,
        links,
        lock,
        onReadModelsAdvance: projector.onApplied,
        retry: { initialDelayMs: 20, maxDelayMs: 100 },
        pollIntervalMs: 50,
        ...options,
      })
      reactors.push(reactor)
      return reactor
    },
    async cleanup() {
      for (const reactor of reactors) await reactor.stop()
      await projector.stop()
      await store.close()
      await database.close()
    },
  }
}

export const smtpTransport = (url: string) => createSmtpTransport({ url, from: FROM })

export { freePort } from '../../../tests/support/free-port.js'

/** An SMTP server that answers 550 to `refused` recipients and accepts (and lists) the others. */
export const startRefusingServer = async (refused: (address: string) => boolean) => {
  const accepted: string[] = []
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onRcptTo(address, _session, callback) {
      if (refused(address.address)) callback(Object.assign(new Error('No such user'), { responseCode: 550 }))
      else callback()
    },
    onData(stream, session, callback) {
      stream.resume()
      stream.on('end', () => {
        accepted.push(...session.envelope.rcptTo.map((r) => r.address))
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
