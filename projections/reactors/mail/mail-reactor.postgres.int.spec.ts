import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../infra/db/database.js'
import { freshPostgres } from '../../../tests/support/databases.js'
import { startSmtpSink } from '../../../tests/support/smtp-sink.js'
import { smtpTransport, startLog } from './mail-reactor.fixture.js'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

describe('mail reactor (PostgreSQL, two processes)', () => {
  it('sends each mail once when two reactors share the log, the advisory lock taking turns', async () => {
    const database = await freshPostgres()
    // Two pools on one database stand for two processes: their advisory locks are separate sessions.
    const first = await startLog(database, 'advisory')
    const second = await startLog(await openDatabase({ kind: 'postgres', url: database.url }), 'advisory')
    cleanup.push(
      () => first.cleanup(),
      () => second.cleanup(),
    )
    const smtp = await startSmtpSink()
    cleanup.push(() => smtp.close())
    const transport = smtpTransport(smtp.url)
    const reactors = [first.reactor({ transport }), second.reactor({ transport })]
    await first.projector.start()
    for (const reactor of reactors) await reactor.start()

    const ids: string[] = []
    for (let n = 0; n < 6; n++) {
      const email = `user${n}@example.com`
      const userId = await first.registerUser({ name: `User ${n}`, email })
      const event = {
        type: 'user.verification-email-requested',
        data: { userId, email, callbackURL: null },
      } as const
      // Appended through either process: each wakes its own reactor, both race for the lock.
      ids.push((await (n % 2 === 0 ? first : second).append(event)).id)
    }
    await first.projector.catchUp()
    await Promise.all(reactors.map((reactor) => reactor.drain()))

    const keys = smtp.messages.map((mail) => mail.headers.get('x-idempotency-key'))
    expect(keys).toEqual(ids)
  })
})
