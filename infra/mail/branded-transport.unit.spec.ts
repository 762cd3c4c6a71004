import { describe, expect, it } from 'vitest'
import { brandedTransport, brandMail } from './branded-transport.js'
import type { OutgoingMail } from './mail.js'
import { resetPassword } from './templates.js'

const reset = (): OutgoingMail => ({
  to: 'ada@example.com',
  idempotencyKey: 'e-1',
  ...resetPassword({ name: 'Ada', url: 'https://id.example/reset-password/t' }),
})

describe('mails carry the product name', () => {
  it('signs a default deployment’s mails Tessera and keeps their subjects', () => {
    const mail = brandMail(reset(), 'Tessera')
    expect(mail.subject).toBe('Reset your password')
    expect(mail.text.trimEnd().endsWith('— Tessera')).toBe(true)
    expect(mail.html).toMatch(/<p style="[^"]*">— Tessera<\/p>\n<\/div>\n<\/body>/)
  })

  it('names an operator’s product in the subject, the text and the page', () => {
    const mail = brandMail(reset(), 'Acme <Accounts>')
    expect(mail.subject).toBe('Acme <Accounts>: Reset your password')
    expect(mail.text).toMatch(/^Hello Ada,/)
    expect(mail.text.trimEnd().endsWith('— Acme <Accounts>')).toBe(true)
    expect(mail.html).toContain('— Acme &lt;Accounts&gt;</p>')
    expect(mail.html).not.toContain('<Accounts>')
  })

  it('is what the transport sends', async () => {
    const sent: OutgoingMail[] = []
    let closed = false
    const transport = brandedTransport(
      {
        send: async (mail) => {
          sent.push(mail)
        },
        close: async () => {
          closed = true
        },
      },
      'Acme',
    )
    await transport.send(reset())
    await transport.close?.()
    expect(sent.map((mail) => mail.subject)).toEqual(['Acme: Reset your password'])
    expect(closed).toBe(true)
  })
})
