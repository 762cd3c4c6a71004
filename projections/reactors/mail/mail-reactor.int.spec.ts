import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { issueToken } from '../../../infra/crypto/derived-tokens.js'
import { verifyEmailToken } from '../../../infra/crypto/email-token.js'
import { sha256Hex } from '../../../infra/crypto/tokens.js'
import { freshPglite } from '../../../tests/support/databases.js'
import { type SmtpSink, startSmtpSink } from '../../../tests/support/smtp-sink.js'
import { listDeadLetters } from './dead-letters.table.js'
import {
  BASE_URL,
  freePort,
  type LogHarness,
  SECRET,
  smtpTransport,
  startLog,
  startRefusingServer,
} from './mail-reactor.fixture.js'
import type { MailReactorLogger } from './mail-reactor.js'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const log = async (): Promise<LogHarness> => {
  const harness = await startLog(await freshPglite())
  cleanup.push(() => harness.cleanup())
  return harness
}

const sink = async (port = 0): Promise<SmtpSink> => {
  const started = await startSmtpSink({ port })
  cleanup.push(() => started.close())
  return started
}

const transportTo = (url: string) => {
  const transport = smtpTransport(url)
  cleanup.push(async () => transport.close?.())
  return transport
}

const verification = (userId: string, email: string, callbackURL: string | null = null) =>
  ({ type: 'user.verification-email-requested', data: { userId, email, callbackURL } }) as const

const recordingLogger = () => {
  const warnings: string[] = []
  const logger: MailReactorLogger = {
    info: () => {},
    warn: (_obj, msg) => warnings.push(msg),
    error: () => {},
  }
  return { logger, warnings }
}

const waitUntil = async (condition: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const keysOf = (smtp: SmtpSink) => smtp.messages.map((m) => m.headers.get('x-idempotency-key'))

describe('mail reactor (PGlite, real SMTP)', () => {
  it('mails a verification link under BASE_URL once the event commits, keyed by the event id', async () => {
    const { projector, registerUser, append, reactor } = await log()
    const smtp = await sink()
    await projector.start()
    await reactor({ transport: transportTo(smtp.url) }).start()

    const userId = await registerUser({ name: 'Ann Lee', email: 'ann@example.com' })
    const event = await append(verification(userId, 'ann@example.com', '/welcome'))

    // No drain: the commit itself wakes the reactor.
    const mail = await smtp.waitForMail()
    expect(mail.to).toEqual(['ann@example.com'])
    expect(mail.subject).toBe('Verify your email address')
    expect(mail.text).toContain('Hello Ann Lee,')
    expect(mail.headers.get('x-idempotency-key')).toBe(event.id)
    const [link = ''] = mail.links
    expect(link.startsWith(`${BASE_URL}/api/auth/verify-email?`)).toBe(true)
    const url = new URL(link)
    expect(url.searchParams.get('callbackURL')).toBe('/welcome')
    expect(await verifyEmailToken(SECRET, url.searchParams.get('token') ?? '', new Date())).toEqual({
      status: 'valid',
      claims: { email: 'ann@example.com', purpose: 'verify-email' },
    })
  })

  it('mails reset and deletion links whose tokens hash to the ones the events stored', async () => {
    const { projector, registerUser, append, reactor } = await log()
    const smtp = await sink()
    const mailer = reactor({ transport: transportTo(smtp.url) })
    await mailer.start()
    const userId = await registerUser({ name: '', email: 'bo@example.com' })
    const reset = issueToken(SECRET, 'password-reset')
    const deletion = issueToken(SECRET, 'delete-account')
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString()
    const { requestId, tokenHash } = reset
    await append({
      type: 'user.password-reset-requested',
      data: { userId, email: 'bo@example.com', requestId, tokenHash, expiresAt, redirectTo: '/reset' },
    })
    await append({
      type: 'user.deletion-requested',
      data: { userId, email: 'bo@example.com', ...pick(deletion), expiresAt, callbackURL: null },
    })
    await projector.catchUp()
    await mailer.drain()

    const [resetMail, deletionMail] = smtp.messages
    expect(resetMail?.subject).toBe('Reset your password')
    expect(resetMail?.text).toContain('Hello bo,')
    const resetLink = new URL(resetMail?.links[0] ?? '')
    expect(resetLink.href.startsWith(`${BASE_URL}/api/auth/reset-password/`)).toBe(true)
    expect(sha256Hex(resetLink.pathname.split('/').at(-1) ?? '')).toBe(reset.tokenHash)
    expect(resetLink.searchParams.get('callbackURL')).toBe('/reset')

    expect(deletionMail?.subject).toBe('Confirm the deletion of your account')
    const deletionLink = new URL(deletionMail?.links[0] ?? '')
    expect(deletionLink.href.startsWith(`${BASE_URL}/api/auth/delete-user/callback?`)).toBe(true)
    expect(sha256Hex(deletionLink.searchParams.get('token') ?? '')).toBe(deletion.tokenHash)
    expect(deletionLink.searchParams.get('callbackURL')).toBe('/')
  })

  it('keeps retrying while the SMTP server is down and delivers each mail exactly once when it is up', async () => {
    const { projector, registerUser, append, reactor } = await log()
    const port = await freePort()
    const { logger, warnings } = recordingLogger()
    const mailer = reactor({ transport: transportTo(`smtp://127.0.0.1:${port}`), logger })
    await projector.start()
    await mailer.start()
    const userId = await registerUser({ name: 'Cy', email: 'cy@example.com' })
    const first = await append(verification(userId, 'cy@example.com'))
    const second = await append(verification(userId, 'cy@example.com', '/again'))

    await waitUntil(() => warnings.length >= 3)
    expect(warnings.every((w) => w.startsWith('mail not delivered'))).toBe(true)

    const smtp = await sink(port)
    await mailer.drain()
    expect(keysOf(smtp)).toEqual([first.id, second.id])
    // A while later, still exactly those two: nothing queued a duplicate.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(keysOf(smtp)).toEqual([first.id, second.id])
  })

  it('does not resend what it sent before a restart', async () => {
    const { projector, registerUser, append, reactor } = await log()
    const smtp = await sink()
    await projector.start()
    const before = reactor({ transport: transportTo(smtp.url) })
    await before.start()
    const userId = await registerUser({ name: 'Di', email: 'di@example.com' })
    const one = await append(verification(userId, 'di@example.com'))
    const two = await append(verification(userId, 'di@example.com'))
    await projector.catchUp()
    await before.drain()
    await before.stop()

    const after = reactor({ transport: transportTo(smtp.url) })
    await after.start()
    await after.drain()
    expect(keysOf(smtp)).toEqual([one.id, two.id])

    const three = await append(verification(userId, 'di@example.com'))
    await projector.catchUp()
    await after.drain()
    expect(keysOf(smtp)).toEqual([one.id, two.id, three.id])
  })

  it('records a permanent rejection as a dead letter and goes on with the next mails', async () => {
    const { db, projector, registerUser, append, reactor } = await log()
    const server = await startRefusingServer((address) => address.startsWith('gone@'))
    cleanup.push(() => server.close())
    const mailer = reactor({ transport: transportTo(server.url) })
    await mailer.start()
    const gone = await registerUser({ name: 'Gone', email: 'gone@example.com' })
    const here = await registerUser({ name: 'Here', email: 'here@example.com' })
    const refused = await append(verification(gone, 'gone@example.com'))
    await append(verification(here, 'here@example.com'))
    await projector.catchUp()
    await mailer.drain()

    expect(server.accepted).toEqual(['here@example.com'])
    const letters = await listDeadLetters(db)
    expect(letters).toHaveLength(1)
    expect(letters[0]?.event_id).toBe(refused.id)
    expect(letters[0]?.error).toMatch(/550/)
    // Dead letters outlive a deleted user's data key: no address in plain text in them.
    expect(letters[0]?.error.toLowerCase()).not.toContain('gone@example.com')
  })

  it('skips the mail of a user who no longer exists, dead-letters a malformed event, and goes on', async () => {
    const { db, projector, registerUser, append, reactor } = await log()
    const smtp = await sink()
    const mailer = reactor({ transport: transportTo(smtp.url) })
    await mailer.start()
    const deleted = randomUUID()
    await append(verification(deleted, 'deleted@example.com'))
    const userId = await registerUser({ name: 'Eve', email: 'eve@example.com' })
    // As an older or buggy writer might have left it: the address is not a string.
    const broken: { type: string; data: { userId: string; email: number } } = {
      type: 'user.verification-email-requested',
      data: { userId, email: 42 },
    }
    const malformed = await append(broken)
    const fine = await append(verification(userId, 'eve@example.com'))
    await projector.catchUp()
    await mailer.drain()

    expect(keysOf(smtp)).toEqual([fine.id])
    expect((await listDeadLetters(db)).map((letter) => letter.event_id)).toEqual([malformed.id])
  })

  it('waits for the read models to show the event before mailing, rather than take the user for deleted', async () => {
    const { db, projector, registerUser, append, reactor } = await log()
    const smtp = await sink()
    const mailer = reactor({ transport: transportTo(smtp.url) })
    await mailer.start()
    const userId = await registerUser({ name: 'Flo', email: 'flo@example.com' })
    const event = await append(verification(userId, 'flo@example.com'))
    await mailer.drain()
    expect(smtp.messages).toHaveLength(0)

    await projector.catchUp()
    await mailer.drain()
    expect(keysOf(smtp)).toEqual([event.id])
    expect(smtp.messages[0]?.text).toContain('Hello Flo,')
    expect(await listDeadLetters(db)).toEqual([])
  })
})

const pick = ({ requestId, tokenHash }: { requestId: string; tokenHash: string }) => ({
  requestId,
  tokenHash,
})
