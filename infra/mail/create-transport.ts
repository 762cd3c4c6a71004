/// Picks the mail transport from configuration: SMTP when SMTP_URL is set, a provider's HTTP API
/// when its URL and key are set, and otherwise the log, so a laptop needs no mail server.

import { createHttpTransport } from './http-transport.js'
import { createLogTransport } from './log-transport.js'
import type { MailLogger, MailTransport } from './mail.js'
import { createSmtpTransport } from './smtp-transport.js'

export type MailSettings = {
  smtpUrl?: string | undefined
  /** Required by the SMTP and HTTP transports. */
  mailFrom?: string | undefined
  httpUrl?: string | undefined
  httpApiKey?: string | undefined
}

export const createMailTransport = (settings: MailSettings, logger: MailLogger): MailTransport => {
  const { smtpUrl, mailFrom, httpUrl, httpApiKey } = settings
  if (smtpUrl && (httpUrl || httpApiKey)) {
    // Two providers at once is a configuration mistake; guessing which one was meant would hide it.
    throw new Error('configure either an SMTP URL or a mail HTTP API, not both')
  }
  if (smtpUrl) return createSmtpTransport({ url: smtpUrl, from: requireFrom(mailFrom) })
  if (httpUrl || httpApiKey) {
    if (!httpUrl || !httpApiKey) throw new Error('the mail HTTP API needs both its URL and its API key')
    return createHttpTransport({ url: httpUrl, apiKey: httpApiKey, from: requireFrom(mailFrom) })
  }
  return createLogTransport(logger)
}

const requireFrom = (mailFrom: string | undefined): string => {
  if (!mailFrom) throw new Error('MAIL_FROM is required when a mail transport is configured')
  return mailFrom
}
