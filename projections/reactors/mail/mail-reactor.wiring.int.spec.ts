import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { userStream } from '../../../domain/user/user.js'
import { verifyEmailToken } from '../../../infra/crypto/email-token.js'
import { startSmtpSink } from '../../../tests/support/smtp-sink.js'
import { startTessera } from '../../../tests/support/tessera.js'
import { metadataAt } from './mail-reactor.fixture.js'

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const SECRET = 'test-secret-that-is-long-enough-0123456789'

describe('mail reactor inside Tessera', () => {
  it('runs with the projector and mails through SMTP_URL with links under BASE_URL', async () => {
    const smtp = await startSmtpSink()
    cleanup.push(() => smtp.close())
    const tessera = await startTessera({
      env: {
        AUTH_SECRET: SECRET,
        BASE_URL: 'https://accounts.example.test',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Tessera <no-reply@tessera.test>',
      },
    })
    cleanup.push(() => tessera.cleanup())

    const userId = randomUUID()
    const registered = {
      type: 'user.registered',
      data: {
        userId,
        email: 'gil@example.com',
        name: 'Gil',
        image: null,
        emailVerified: false,
        credential: null,
      },
    }
    const requested = {
      type: 'user.verification-email-requested',
      data: { userId, email: 'gil@example.com', callbackURL: '/done' },
    }
    const id = randomUUID()
    await tessera.store.appendToStream(
      userStream(userId),
      [
        { ...registered, id: randomUUID(), metadata: metadataAt(new Date()) },
        { ...requested, id, metadata: metadataAt(new Date()) },
      ],
      { expectedVersion: 'no_stream' },
    )

    const mail = await smtp.waitForMail()
    expect(mail.to).toEqual(['gil@example.com'])
    expect(mail.from).toBe('no-reply@tessera.test')
    expect(mail.headers.get('x-idempotency-key')).toBe(id)
    expect(mail.text).toContain('Hello Gil,')
    const link = new URL(mail.links[0] ?? '')
    expect(`${link.origin}${link.pathname}`).toBe('https://accounts.example.test/api/auth/verify-email')
    const check = await verifyEmailToken(SECRET, link.searchParams.get('token') ?? '', new Date())
    expect(check).toMatchObject({ status: 'valid', claims: { email: 'gil@example.com' } })
  })
})
