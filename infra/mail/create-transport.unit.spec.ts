import { Writable } from 'node:stream'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import { createMailTransport } from './create-transport.js'
import { resetPassword } from './templates.js'

/** A real pino logger writing JSON lines into an array. */
const capturingLogger = () => {
  const lines: { msg: string; mail?: { to: string } }[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')))
      done()
    },
  })
  return { logger: pino(stream), lines }
}

const link = 'http://localhost:3000/reset-password/tok_abc?callbackURL=%2F'

describe('createMailTransport', () => {
  it('prints mail to the log when no transport is configured, link included', async () => {
    const { logger, lines } = capturingLogger()
    const transport = createMailTransport({}, logger)
    await transport.send({
      to: 'ann@example.com',
      idempotencyKey: 'k1',
      ...resetPassword({ name: 'Ann', url: link }),
    })

    expect(lines).toHaveLength(1)
    expect(lines[0]?.mail?.to).toBe('ann@example.com')
    expect(lines[0]?.msg).toContain('Subject: Reset your password')
    expect(lines[0]?.msg).toContain(link)
  })

  it('needs MAIL_FROM with SMTP', () => {
    expect(() => createMailTransport({ smtpUrl: 'smtp://127.0.0.1:2525' }, capturingLogger().logger)).toThrow(
      /MAIL_FROM/,
    )
  })

  it('needs both the URL and the key of an HTTP API', () => {
    const { logger } = capturingLogger()
    expect(() => createMailTransport({ httpApiKey: 'k', mailFrom: 'a@b.c' }, logger)).toThrow(/URL/)
    expect(() =>
      createMailTransport({ httpUrl: 'https://api.example.com', mailFrom: 'a@b.c' }, logger),
    ).toThrow(/key/)
  })

  it('refuses SMTP and an HTTP API at once rather than guess', () => {
    const settings = {
      smtpUrl: 'smtp://127.0.0.1:2525',
      httpUrl: 'https://api.example.com/emails',
      httpApiKey: 'k',
      mailFrom: 'a@b.c',
    }
    expect(() => createMailTransport(settings, capturingLogger().logger)).toThrow(/not both/)
  })
})
