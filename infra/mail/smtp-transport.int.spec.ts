import { SMTPServer } from 'smtp-server'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../../tests/support/free-port.js'
import { type SmtpSink, startSmtpSink } from '../../tests/support/smtp-sink.js'
import { createMailTransport } from './create-transport.js'
import { MailDeliveryError, type MailTransport, type OutgoingMail } from './mail.js'
import { createSmtpTransport } from './smtp-transport.js'
import { verifyEmail } from './templates.js'

// Long enough that quoted-printable has to break its line inside the link.
const link = `http://localhost:3000/api/auth/verify-email?token=${'a1'.repeat(40)}&callbackURL=%2Fwelcome`
const from = 'Tessera <no-reply@tessera.test>'

const mailTo = (to: string, idempotencyKey = `key-${to}`): OutgoingMail => ({
  to,
  idempotencyKey,
  ...verifyEmail({ name: 'Zoë <Ann> 日本', url: link }),
})

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const sinkFor = async (...args: Parameters<typeof startSmtpSink>): Promise<SmtpSink> => {
  const sink = await startSmtpSink(...args)
  cleanup.push(() => sink.close())
  return sink
}

const transportFor = (url: string): MailTransport => {
  const transport = createSmtpTransport({ url, from })
  cleanup.push(async () => transport.close?.())
  return transport
}

const deliveryError = async (promise: Promise<unknown>): Promise<MailDeliveryError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof MailDeliveryError))
    throw new Error(`expected a MailDeliveryError, got ${String(error)}`)
  return error
}

describe('SMTP transport', () => {
  it('delivers the mail with its subject, recipient and link in both parts', async () => {
    const sink = await sinkFor({ auth: { user: 'mailer', pass: 'p@ss:w/rd' } })
    await transportFor(sink.url).send(mailTo('ann@example.com'))

    const mail = await sink.waitForMail((m) => m.to.includes('ann@example.com'))
    expect(mail.subject).toBe('Verify your email address')
    expect(mail.from).toBe('no-reply@tessera.test')
    expect(mail.headers.get('from')).toBe(from)
    expect(mail.text).toContain('Hello Zoë <Ann> 日本,')
    expect(mail.links).toEqual([link])
    expect(mail.html).toContain('Hello Zoë &lt;Ann&gt; 日本,')
    expect(mail.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`)
  })

  it('derives the Message-ID from the idempotency key, so a resend is recognisably the same mail', async () => {
    const sink = await sinkFor()
    const transport = transportFor(sink.url)
    await transport.send(mailTo('ann@example.com', 'user.registered:42'))
    await transport.send(mailTo('ann@example.com', 'user.registered:42'))
    await transport.send(mailTo('ann@example.com', 'user.registered:43'))

    const [first, resend, other] = sink.messages
    expect(first?.headers.get('x-idempotency-key')).toBe('user.registered:42')
    expect(first?.headers.get('message-id')).toMatch(/^<[0-9a-f]{40}@tessera\.test>$/)
    expect(resend?.headers.get('message-id')).toBe(first?.headers.get('message-id'))
    expect(other?.headers.get('message-id')).not.toBe(first?.headers.get('message-id'))
  })

  it('fails retryably while no server listens, and a retry succeeds once one does', async () => {
    const port = await freePort()
    const transport = transportFor(`smtp://127.0.0.1:${port}`)

    const error = await deliveryError(transport.send(mailTo('bob@example.com')))
    expect(error.retryable).toBe(true)

    const sink = await sinkFor({ port })
    await transport.send(mailTo('bob@example.com'))
    const mail = await sink.waitForMail((m) => m.to.includes('bob@example.com'))
    expect(mail.links).toEqual([link])
  })

  it('fails for good when the server rejects the recipient permanently', async () => {
    const port = await rejectingServer(550)
    const error = await deliveryError(
      transportFor(`smtp://127.0.0.1:${port}`).send(mailTo('gone@example.com')),
    )
    expect(error.retryable).toBe(false)
  })

  it('fails retryably when the server defers the recipient', async () => {
    const port = await rejectingServer(451)
    const error = await deliveryError(
      transportFor(`smtp://127.0.0.1:${port}`).send(mailTo('busy@example.com')),
    )
    expect(error.retryable).toBe(true)
  })

  it('keeps the mail for a retry when the credentials are wrong: the operator fixes those', async () => {
    const sink = await sinkFor({ auth: { user: 'mailer', pass: 'right' } })
    const error = await deliveryError(
      transportFor(`smtp://mailer:wrong@127.0.0.1:${sink.port}`).send(mailTo('ann@example.com')),
    )
    expect(error.retryable).toBe(true)
    expect(sink.messages).toHaveLength(0)
  })

  it('is what createMailTransport picks when an SMTP URL is configured', async () => {
    const sink = await sinkFor()
    const logged: string[] = []
    const transport = createMailTransport(
      { smtpUrl: sink.url, mailFrom: from },
      { info: (_obj, msg) => logged.push(msg) },
    )
    cleanup.push(async () => transport.close?.())
    await transport.send(mailTo('cy@example.com'))

    expect((await sink.waitForMail()).to).toEqual(['cy@example.com'])
    expect(logged).toEqual([])
  })

  it('refuses a URL that is not smtp:// or smtps://', () => {
    expect(() => createSmtpTransport({ url: 'http://127.0.0.1:25', from })).toThrow(/smtp/)
  })
})

/** A server that answers every RCPT TO with the given reply code. */
const rejectingServer = async (responseCode: number): Promise<number> => {
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error('Recipient refused'), { responseCode }))
    },
  })
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}
