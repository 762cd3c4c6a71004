/// The second-factor code mail: `two-factor.code-mailed` → the account's address (users read
/// model). The code is derived again from the event's request id under the server secret (it was
/// never stored); a code past its expiry, or for a person who is gone, is not sent.

import type { Kysely } from 'kysely'
import { mailedCode, mailedCodeHash } from '../../../infra/crypto/two-factor-codes.js'
import type { RecordedEvent } from '../../../infra/event-store/event-store.js'
import { MailDeliveryError } from '../../../infra/mail/mail.js'
import { twoFactorCode } from '../../../infra/mail/two-factor-templates.js'
import type { Database } from '../../database.js'
import { findUserById } from '../../users/users.repository.js'
import { greetingName } from './compose-mail.js'
import { recordDeadLetter } from './dead-letters.table.js'
import type { DeliveryDependencies, DeliveryOutcome } from './deliver-mail.js'

export const isTwoFactorMailEventType = (type: string): boolean => type === 'two-factor.code-mailed'

const text = (data: object, key: string): string | null => {
  const value = Reflect.get(data, key)
  return typeof value === 'string' && value !== '' ? value : null
}

export const deliverTwoFactorMail = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> => {
  const log = { eventId: event.id, type: event.type }
  const [userId, requestId, codeHash, expiresAt] = ['userId', 'requestId', 'codeHash', 'expiresAt'].map(
    (key) => text(event.data, key),
  )
  if (!userId || !requestId || !codeHash || !expiresAt) {
    await recordDeadLetter(db, { eventId: event.id, error: 'the event is not a code mail', at: deps.now() })
    return 'dead-lettered'
  }
  const user = await findUserById(db, userId)
  if (!user || Date.parse(expiresAt) <= deps.now().getTime()) {
    deps.logger.info(log, 'mail skipped: the person is gone or the code has expired')
    return 'skipped'
  }
  const code = codeFor(deps, requestId, userId, codeHash)
  if (code === null) {
    await recordDeadLetter(db, {
      eventId: event.id,
      error: 'no accepted secret made this code',
      at: deps.now(),
    })
    return 'dead-lettered'
  }
  const validMinutes = Math.max(
    1,
    Math.round((Date.parse(expiresAt) - Date.parse(event.metadata.at)) / 60_000),
  )
  const rendered = twoFactorCode({ name: greetingName(user.name, user.email), code, validMinutes })
  try {
    await deps.transport.send({ to: user.email, idempotencyKey: event.id, ...rendered })
  } catch (error) {
    if (!(error instanceof MailDeliveryError) || error.retryable) throw error
    await recordDeadLetter(db, {
      eventId: event.id,
      error: 'the transport refused the code mail',
      at: deps.now(),
    })
    return 'dead-lettered'
  }
  deps.logger.info(log, 'mail sent')
  return 'sent'
}

/** The code whose hash was recorded, under whichever accepted secret (current first) made it. */
const codeFor = (
  deps: DeliveryDependencies,
  requestId: string,
  userId: string,
  codeHash: string,
): string | null => {
  for (const secret of [deps.links.secret, ...(deps.links.previousSecrets ?? [])]) {
    for (const digits of [6, 7, 8, 4, 5, 9, 10]) {
      const code = mailedCode(secret, requestId, digits)
      if (mailedCodeHash(secret, userId, code) === codeHash) return code
    }
  }
  return null
}
