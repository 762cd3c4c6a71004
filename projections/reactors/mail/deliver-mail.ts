/// One mail event, handled once: find who it is for, compose, send. The caller advances the
/// checkpoint after this returns; a throw means "not handled, try the same event again later".

import type { Kysely } from 'kysely'
import type { RecordedEvent } from '../../../infra/event-store/event-store.js'
import { MailDeliveryError, type MailTransport, type OutgoingMail } from '../../../infra/mail/mail.js'
import type { Database } from '../../database.js'
import { findUserById } from '../../users/users.repository.js'
import { composeMail, greetingName, type MailLinkSettings } from './compose-mail.js'
import { recordDeadLetter } from './dead-letters.table.js'
import { parseMailEvent, recipientOf, userIdOf } from './mail-events.js'

export type MailReactorLogger = {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export type DeliveryDependencies = {
  transport: MailTransport
  links: MailLinkSettings
  logger: MailReactorLogger
  now: () => Date
}

export type DeliveryOutcome = 'sent' | 'skipped' | 'dead-lettered'

/**
 * Sends the mail `event` asks for. Resolves once the mail is out, deliberately skipped (the user
 * is gone) or recorded as a dead letter (it can never be sent). Throws when sending it again later
 * may work: a retryable transport failure, or a database error.
 */
export const deliverMail = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> => {
  const log = { eventId: event.id, type: event.type }
  const userId = userIdOf(event)
  // A user deleted before their mail went out gets no mail: the link would lead nowhere.
  const user = userId === undefined ? undefined : await findUserById(db, userId)
  if (userId !== undefined && !user) {
    deps.logger.info(log, 'mail skipped: the user no longer exists')
    return 'skipped'
  }
  const mailEvent = parseMailEvent(event)
  if (!mailEvent) return deadLetter(db, event, 'the event data does not have the shape of a mail event', deps)
  let mail: OutgoingMail
  try {
    const name = greetingName(user?.name, recipientOf(mailEvent))
    mail = await composeMail(mailEvent, { name, at: eventTime(event), idempotencyKey: event.id }, deps.links)
  } catch (error) {
    // Composing is deterministic: what failed once (e.g. a link that cannot be built) always will.
    return deadLetter(db, event, `the mail could not be composed: ${messageOf(error)}`, deps)
  }
  try {
    await deps.transport.send(mail)
  } catch (error) {
    if (error instanceof MailDeliveryError && !error.retryable)
      return deadLetter(db, event, withoutAddress(error.message, mail.to), deps)
    throw error
  }
  deps.logger.info(log, 'mail sent')
  return 'sent'
}

const deadLetter = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  error: string,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> => {
  deps.logger.error(
    { eventId: event.id, type: event.type, error },
    'mail cannot be sent; recorded as a dead letter',
  )
  await recordDeadLetter(db, { eventId: event.id, error, at: deps.now() })
  return 'dead-lettered'
}

// The decision time the command recorded; the commit time only if that is unreadable.
const eventTime = (event: RecordedEvent): Date => {
  const at = new Date(event.metadata.at)
  return Number.isNaN(at.getTime()) ? event.recordedAt : at
}

/**
 * A dead letter outlives the user's data key (crypto-shredding erases what the log holds, not this
 * table), and transports and SMTP servers put the recipient in their error text: take it out.
 */
const withoutAddress = (text: string, address: string): string =>
  address === ''
    ? text
    : text.replace(new RegExp(address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '<recipient>')

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
