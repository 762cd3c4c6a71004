/// Where mails go: SMTP, an HTTP mail API, or (neither set) the log.

import { ConfigError } from './config-error.js'
import { type Get, urlWithScheme } from './env-values.js'

/** Shaped like `MailSettings` of infra/mail: no SMTP or HTTP provider means mails go to the log. */
export type MailConfig = {
  mailFrom: string
  smtpUrl: string | undefined
  httpUrl: string | undefined
  httpApiKey: string | undefined
}

const MAILBOX = /^(?:[^<>]*<[^<>\s]+@[^<>\s]+>|[^<>\s]+@[^<>\s]+)$/

export const parseMail = (get: Get, mailFrom: string): MailConfig => {
  if (!MAILBOX.test(mailFrom)) {
    throw new ConfigError('MAIL_FROM', `MAIL_FROM must be an address or "Name <address>" (got "${mailFrom}")`)
  }
  const smtpUrl = urlWithScheme(get, 'SMTP_URL', ['smtp:', 'smtps:'])
  const httpUrl = urlWithScheme(get, 'MAIL_HTTP_URL', ['http:', 'https:'])
  const httpApiKey = get('MAIL_HTTP_API_KEY')
  if ((httpUrl === undefined) !== (httpApiKey === undefined)) {
    const missing = httpUrl === undefined ? 'MAIL_HTTP_URL' : 'MAIL_HTTP_API_KEY'
    throw new ConfigError(
      missing,
      `${missing} must be set too: the mail HTTP API needs its URL and its API key`,
    )
  }
  if (smtpUrl !== undefined && httpUrl !== undefined) {
    throw new ConfigError('SMTP_URL', 'SMTP_URL and MAIL_HTTP_URL are both set: choose one mail transport')
  }
  return { mailFrom, smtpUrl, httpUrl, httpApiKey }
}
