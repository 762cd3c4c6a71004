/// Sends mail over SMTP with nodemailer. One connection per mail: account mail is low volume, and
/// a fresh connection means a server restart between two mails costs nothing.

import { createHash } from 'node:crypto'
import type { NodemailerError, Transporter } from 'nodemailer'
import { MailDeliveryError, type MailTransport, type OutgoingMail } from './mail.js'

export type SmtpTransportOptions = {
  /** `smtp://user:pass@host:port` or `smtps://…` (TLS from the first byte); credentials percent-encoded. */
  url: string
  /** The From header, e.g. `Tessera <no-reply@example.com>`. */
  from: string
}

export const createSmtpTransport = (options: SmtpTransportOptions): MailTransport => {
  assertSmtpUrl(options.url)
  // nodemailer (some 40 modules) is loaded with the first mail: a server that sends none, or not
  // yet, does not carry it in memory.
  let transporter: Promise<Transporter> | undefined
  const transporterOnce = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: options.url,
        // Bounded waits: the mail reactor retries, it should not hang on a silent server.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    ))
  const messageIdDomain = domainOf(options.from)
  return {
    async send(mail: OutgoingMail) {
      try {
        await (await transporterOnce()).sendMail({
          from: options.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          // The same key always gives the same Message-ID, so a resend after a lost reply is
          // recognisable downstream as a duplicate rather than a second mail.
          messageId: `<${digest(mail.idempotencyKey)}@${messageIdDomain}>`,
          headers: { 'X-Idempotency-Key': mail.idempotencyKey },
        })
      } catch (error) {
        throw new MailDeliveryError(`SMTP delivery to ${mail.to} failed: ${describe(error)}`, {
          retryable: isRetryable(error),
          cause: error,
        })
      }
    },
    async close() {
      if (transporter) (await transporter).close()
    },
  }
}

const assertSmtpUrl = (url: string): void => {
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    throw new Error('SMTP_URL is not a valid URL (expected smtp://user:pass@host:port)')
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:')
    throw new Error('SMTP_URL must start with smtp:// or smtps://')
}

const digest = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 40)

const domainOf = (from: string): string => {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)
  return match?.[1] ?? 'tessera.invalid'
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))

// Errors about the message or its recipients, which the same mail will always get again.
const MESSAGE_ERROR_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'EMAXRECIPIENTS'])
// Bad credentials are the operator's to fix, not the mail's fault: keep the mail for later.
const AUTH_ERROR_CODES = new Set(['EAUTH', 'ENOAUTH'])

const isRetryable = (error: unknown): boolean => {
  if (!(error instanceof Error)) return true
  // Every NodemailerError field is optional, so any Error reads as one without a cast.
  const { code, responseCode, permanent }: NodemailerError = error
  if (code !== undefined && AUTH_ERROR_CODES.has(code)) return true
  // nodemailer sets `permanent` from the reply class: 5xx (except 503) will never succeed.
  if (permanent === true) return false
  if (responseCode !== undefined) return true
  // No SMTP reply at all: refused, reset or timed-out connections and TLS trouble are retryable.
  return code === undefined || !MESSAGE_ERROR_CODES.has(code)
}
