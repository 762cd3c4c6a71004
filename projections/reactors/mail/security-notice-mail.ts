/// Security notices: after a credential changes, the account's address is told (OWASP ASVS 5.0
/// V6.3.7), with what to do if it was not the owner.
///
/// - `user.password-changed`, `user.password-reset` → the account's address (users read model).
/// - `user.email-changed` → the address it had before, when that one was verified (a verified
///   user's change; an unverified address was never shown to be the owner's, so it is not told).
/// - `user.deletion-notice-requested` → the deleted account's address, read from the event: it is
///   sealed under a key of its own (the user's key is already destroyed). Once handled (sent,
///   skipped or dead-lettered) the reactor appends `user.deletion-notice-sent`, whose append
///   destroys that key too (infra/event-store/personal-data/erasure.ts): the address is gone.

import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { deletionNoticeSubject } from '../../../domain/user/user.declarations.js'
import type { UserEvent, UserEventType } from '../../../domain/user/user.events.js'
import {
  ConcurrencyError,
  type EventStore,
  type RecordedEvent,
} from '../../../infra/event-store/event-store.js'
import { MailDeliveryError, type OutgoingMail } from '../../../infra/mail/mail.js'
import {
  accountDeletedNotice,
  emailChangedNotice,
  passwordChangedNotice,
  passwordResetNotice,
} from '../../../infra/mail/notice-templates.js'
import { buildLink } from '../../../infra/mail/templates.js'
import type { Database } from '../../database.js'
import { findUserById } from '../../users/users.repository.js'
import { greetingName } from './compose-mail.js'
import { recordDeadLetter } from './dead-letters.table.js'
import type { DeliveryDependencies, DeliveryOutcome } from './deliver-mail.js'

export const SECURITY_NOTICE_EVENT_TYPES = [
  'user.password-changed',
  'user.password-reset',
  'user.email-changed',
  'user.deletion-notice-requested',
] as const satisfies readonly UserEventType[]

export const isSecurityNoticeEventType = (type: string): boolean =>
  SECURITY_NOTICE_EVENT_TYPES.some((candidate) => candidate === type)

/** The portal page where a reset link is asked for: the way to act when it was not the owner. */
const FORGOT_PASSWORD_PATH = '/forgot-password'

const text = (data: object, key: string): string | null => {
  const value = Reflect.get(data, key)
  return typeof value === 'string' && value !== '' ? value : null
}

/** Handles one notice event; throws (try again later) only when sending again may work. */
export const deliverSecurityNotice = async (
  db: Kysely<Database>,
  store: EventStore,
  event: RecordedEvent,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> => {
  if (event.type === 'user.deletion-notice-requested') {
    const outcome = await send(db, event, deps, await deletionNotice(event))
    await forgetDeletionNotice(store, event)
    return outcome
  }
  return send(db, event, deps, await credentialNotice(db, event, deps))
}

type Composed = OutgoingMail | { skip: string } | { deadLetter: string }

const deletionNotice = async (event: RecordedEvent): Promise<Composed> => {
  const email = text(event.data, 'email')
  // Erased already: an earlier attempt finished the job, or an operator forgot the subject.
  if (email === null) return { skip: 'the address of the deleted account is no longer readable' }
  const rendered = accountDeletedNotice({
    name: greetingName(text(event.data, 'name'), email),
    at: eventTime(event),
  })
  return { to: email, idempotencyKey: event.id, ...rendered }
}

const credentialNotice = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  deps: DeliveryDependencies,
): Promise<Composed> => {
  const userId = text(event.data, 'userId')
  if (userId === null) return { deadLetter: 'the event names no user' }
  // A user deleted since has nothing left to protect (and gets the deletion notice instead).
  const user = await findUserById(db, userId)
  if (!user) return { skip: 'the user no longer exists' }
  const input = {
    name: greetingName(user.name, user.email),
    at: eventTime(event),
    resetUrl: buildLink(deps.links.baseUrl, FORGOT_PASSWORD_PATH),
  }
  const type = event.type as (typeof SECURITY_NOTICE_EVENT_TYPES)[number]
  switch (type) {
    case 'user.password-changed':
      return { to: user.email, idempotencyKey: event.id, ...passwordChangedNotice(input) }
    case 'user.password-reset':
      return { to: user.email, idempotencyKey: event.id, ...passwordResetNotice(input) }
    case 'user.email-changed': {
      const data = event.data as Partial<Extract<UserEvent, { type: 'user.email-changed' }>['data']>
      if (data.emailVerified !== true) return { skip: 'the previous address was never verified' }
      const previous = text(event.data, 'previousEmail')
      if (previous === null) return { skip: 'the previous address is no longer readable' }
      const name = greetingName(user.name, previous)
      return { to: previous, idempotencyKey: event.id, ...emailChangedNotice({ ...input, name }) }
    }
    case 'user.deletion-notice-requested':
      return { skip: 'handled by deletionNotice' }
  }
}

const send = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  deps: DeliveryDependencies,
  composed: Composed,
): Promise<DeliveryOutcome> => {
  const log = { eventId: event.id, type: event.type }
  if ('skip' in composed) {
    deps.logger.info({ ...log, reason: composed.skip }, 'notice skipped')
    return 'skipped'
  }
  if ('deadLetter' in composed) return deadLetter(db, event, composed.deadLetter, deps)
  try {
    await deps.transport.send(composed)
  } catch (error) {
    // The transport's text may hold the address: it is not kept.
    if (error instanceof MailDeliveryError && !error.retryable)
      return deadLetter(db, event, 'the transport refused the notice', deps)
    throw error
  }
  deps.logger.info(log, 'notice sent')
  return 'sent'
}

const deadLetter = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  error: string,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> => {
  deps.logger.error({ eventId: event.id, type: event.type, error }, 'notice cannot be sent; dead letter')
  await recordDeadLetter(db, { eventId: event.id, error, at: deps.now() })
  return 'dead-lettered'
}

/** Appends `user.deletion-notice-sent` once per notice: a second attempt finds the stream there. */
const forgetDeletionNotice = async (store: EventStore, event: RecordedEvent): Promise<void> => {
  const noticeId = text(event.data, 'noticeId')
  const userId = text(event.data, 'userId')
  if (noticeId === null || userId === null) return
  try {
    await store.appendToStream(
      deletionNoticeSubject(noticeId),
      [
        {
          id: randomUUID(),
          type: 'user.deletion-notice-sent',
          data: { userId, noticeId },
          metadata: {
            actor: { type: 'system' },
            ip: null,
            userAgent: null,
            correlationId: event.metadata.correlationId,
            causationId: event.id,
            at: new Date().toISOString(),
          },
        },
      ],
      { expectedVersion: 'no_stream' },
    )
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error
  }
}

// The decision time the command recorded; the commit time only if that is unreadable.
const eventTime = (event: RecordedEvent): Date => {
  const at = new Date(event.metadata.at)
  return Number.isNaN(at.getTime()) ? event.recordedAt : at
}
