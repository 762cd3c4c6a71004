/// The mails of passwordless sign-in, sent by the mail reactor:
/// - `magic-link.requested` → `{basePath}/magic-link/verify?token=T&callbackURL=C[&newUserCallbackURL=N]
///   [&errorCallbackURL=E]`, better-auth's link, to `email`; T = deriveToken(secret, 'magic-link',
///   requestId), whose SHA-256 is the event's tokenHash (and its stream's name).
/// - `email-otp.code-issued` → the code, deriveToken(secret, 'email-otp', requestId, length), to
///   `email` (to `newEmail` for a change of address); its codeHash is keyed (code-hash.ts).
/// Both are read from the event alone: an address erased before the mail went out (its person
/// deleted) reads as null, and the mail is skipped.

import type { Kysely } from 'kysely'
import { keyedCodeHash } from '../../../infra/crypto/code-hash.js'
import {
  deriveRecordedToken,
  deriveToken,
  type TokenHasher,
  type TokenPurpose,
} from '../../../infra/crypto/derived-tokens.js'
import type { RecordedEvent } from '../../../infra/event-store/event-store.js'
import { MailDeliveryError, type OutgoingMail } from '../../../infra/mail/mail.js'
import {
  type CodePurpose,
  magicLinkMail,
  oneTimeCodeMail,
} from '../../../infra/mail/passwordless-templates.js'
import { buildLink, type RenderedMail } from '../../../infra/mail/templates.js'
import type { Database } from '../../database.js'
import { recordDeadLetter } from './dead-letters.table.js'
import type { DeliveryDependencies, DeliveryOutcome } from './deliver-mail.js'

const TYPES = ['magic-link.requested', 'email-otp.code-issued'] as const

export const isPasswordlessMailEventType = (type: string): boolean => TYPES.some((known) => known === type)

type Fields = Record<string, unknown>
const text = (fields: Fields, key: string): string | null =>
  typeof fields[key] === 'string' && fields[key] !== '' ? (fields[key] as string) : null

const CODE_PURPOSES: readonly CodePurpose[] = [
  'sign-in',
  'email-verification',
  'forget-password',
  'change-email',
]

export const deliverPasswordlessMail = async (
  db: Kysely<Database>,
  event: RecordedEvent,
  deps: DeliveryDependencies,
): Promise<DeliveryOutcome> => {
  const log = { eventId: event.id, type: event.type }
  const composed = compose(event, deps)
  if (composed === 'erased') {
    deps.logger.info(log, 'mail skipped: the address was erased')
    return 'skipped'
  }
  if (composed === null) {
    await recordDeadLetter(db, {
      eventId: event.id,
      error: 'the event data does not have the shape of a mail event',
      at: deps.now(),
    })
    return 'dead-lettered'
  }
  try {
    await deps.transport.send(composed)
  } catch (error) {
    if (!(error instanceof MailDeliveryError) || error.retryable) throw error
    await recordDeadLetter(db, { eventId: event.id, error: 'the transport refused the mail', at: deps.now() })
    return 'dead-lettered'
  }
  deps.logger.info(log, 'mail sent')
  return 'sent'
}

const compose = (event: RecordedEvent, deps: DeliveryDependencies): OutgoingMail | 'erased' | null => {
  const fields = event.data as Fields
  if (event.metadata.erased) return 'erased'
  const requestId = text(fields, 'requestId')
  const tokenHash = text(fields, 'tokenHash') ?? text(fields, 'codeHash')
  const expiresAt = Date.parse(text(fields, 'expiresAt') ?? '')
  if (!requestId || !tokenHash || Number.isNaN(expiresAt)) return null
  const validMinutes = Math.max(1, Math.round((expiresAt - Date.parse(event.metadata.at)) / 60_000))
  const token = (purpose: TokenPurpose, length?: number, hashOf?: TokenHasher) =>
    deriveRecordedToken(
      [deps.links.secret, ...(deps.links.previousSecrets ?? [])],
      purpose,
      requestId,
      tokenHash,
      length,
      hashOf,
    ) ?? deriveToken(deps.links.secret, purpose, requestId, length)
  let to: string | null
  let rendered: RenderedMail
  if (event.type === 'magic-link.requested') {
    to = text(fields, 'email')
    const params: Record<string, string> = {
      token: token('magic-link'),
      callbackURL: text(fields, 'callbackURL') ?? '/',
    }
    for (const key of ['newUserCallbackURL', 'errorCallbackURL']) {
      const value = text(fields, key)
      if (value) params[key] = value
    }
    const url = buildLink(deps.links.baseUrl, `${deps.links.basePath}/magic-link/verify`, params)
    rendered = magicLinkMail({ url, validMinutes })
  } else {
    const purpose = CODE_PURPOSES.find((known) => known === fields.otpType)
    const length = typeof fields.length === 'number' ? fields.length : undefined
    if (!purpose) return null
    to = purpose === 'change-email' ? text(fields, 'newEmail') : text(fields, 'email')
    // A code's hash is keyed and bound to its stream (the slot it was issued for).
    const codeHash: TokenHasher = (secret, code) => keyedCodeHash(secret, event.streamId, code)
    rendered = oneTimeCodeMail({ code: token('email-otp', length, codeHash), purpose, validMinutes })
  }
  if (to === null) return 'erased'
  return { to, idempotencyKey: event.id, ...rendered }
}
