/// The mail port: what the mail reactor hands to a transport, and how a transport says it failed.

export type OutgoingMail = {
  to: string
  subject: string
  text: string
  html: string
  /**
   * Stable for one logical mail (e.g. derived from the event that caused it), so a retried send
   * can be recognised as the same message by a provider that deduplicates.
   */
  idempotencyKey: string
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>
  close?(): Promise<void>
}

/**
 * Thrown by a transport when a mail was not delivered. `retryable` tells the reactor whether
 * sending the same mail later can succeed (server down, rate limited) or never will (rejected).
 */
export class MailDeliveryError extends Error {
  override readonly name = 'MailDeliveryError'
  readonly retryable: boolean

  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause })
    this.retryable = options.retryable
  }
}

/** A pino-compatible logger, narrowed to what the mail layer uses. */
export type MailLogger = {
  info(obj: object, msg: string): void
}
