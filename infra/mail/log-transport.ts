/// The default transport: no mail server, the mail goes to the log so that a developer running
/// `npm start` can still follow a verification or reset link.

import type { MailLogger, MailTransport, OutgoingMail } from './mail.js'

export const createLogTransport = (logger: MailLogger): MailTransport => ({
  async send(mail: OutgoingMail) {
    // The text body carries the link; the HTML would only repeat it, noisily.
    logger.info(
      { mail: { to: mail.to, subject: mail.subject, idempotencyKey: mail.idempotencyKey } },
      `mail not sent (no SMTP_URL configured), printed instead:\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}`,
    )
  },
})
