/// The events that cause a mail, read back from the log. The log gives `data: object`; this checks
/// each field instead of trusting a cast, because an event written by an older version (or whose
/// personal data was erased) must become a dead letter, not a crash in the middle of a batch.

import { MAIL_EVENT_TYPES, type UserEvent } from '../../../domain/user/user.events.js'
import type { RecordedEvent } from '../../../infra/event-store/event-store.js'

export type MailEventType = (typeof MAIL_EVENT_TYPES)[number]
export type MailEvent = Extract<UserEvent, { type: MailEventType }>

export const isMailEventType = (type: string): type is MailEventType =>
  MAIL_EVENT_TYPES.some((candidate) => candidate === type)

type Fields = ReadonlyMap<string, unknown>

const text = (fields: Fields, key: string): string | undefined => {
  const value = fields.get(key)
  return typeof value === 'string' ? value : undefined
}

/** `null` when the field is null or absent (JSON drops undefined); `undefined` when it has the wrong type. */
const optionalText = (fields: Fields, key: string): string | null | undefined => {
  const value = fields.get(key)
  if (value === null || value === undefined) return null
  return typeof value === 'string' ? value : undefined
}

/** The user the mail is about, read before anything else so a deleted user's mail can be skipped. */
export const userIdOf = (event: RecordedEvent): string | undefined =>
  text(new Map(Object.entries(event.data)), 'userId')

/** The mail event with every field checked, or null when the data does not have the expected shape. */
export const parseMailEvent = (event: RecordedEvent): MailEvent | null => {
  if (!isMailEventType(event.type)) return null
  const fields: Fields = new Map(Object.entries(event.data))
  const userId = text(fields, 'userId')
  if (userId === undefined) return null
  switch (event.type) {
    case 'user.verification-email-requested': {
      const email = text(fields, 'email')
      const callbackURL = optionalText(fields, 'callbackURL')
      if (email === undefined || callbackURL === undefined) return null
      return { type: event.type, data: { userId, email, callbackURL } }
    }
    case 'user.password-reset-requested':
      return oneTimeTokenRequest(fields, userId, 'redirectTo', (data) => ({
        type: 'user.password-reset-requested',
        data: { ...data.common, redirectTo: data.link },
      }))
    case 'user.deletion-requested':
      return oneTimeTokenRequest(fields, userId, 'callbackURL', (data) => ({
        type: 'user.deletion-requested',
        data: { ...data.common, callbackURL: data.link },
      }))
    case 'user.email-change-requested':
    case 'user.email-change-confirmed': {
      const currentEmail = text(fields, 'currentEmail')
      const newEmail = text(fields, 'newEmail')
      const callbackURL = optionalText(fields, 'callbackURL')
      if (currentEmail === undefined || newEmail === undefined || callbackURL === undefined) return null
      return { type: event.type, data: { userId, currentEmail, newEmail, callbackURL } }
    }
  }
}

type TokenRequestData = {
  common: { userId: string; email: string; requestId: string; tokenHash: string; expiresAt: string }
  link: string | null
}

// Password reset and deletion requests share their shape but name their return address differently.
const oneTimeTokenRequest = (
  fields: Fields,
  userId: string,
  linkField: 'redirectTo' | 'callbackURL',
  build: (data: TokenRequestData) => MailEvent,
): MailEvent | null => {
  const email = text(fields, 'email')
  const requestId = text(fields, 'requestId')
  const tokenHash = text(fields, 'tokenHash')
  const expiresAt = text(fields, 'expiresAt')
  const link = optionalText(fields, linkField)
  if (email === undefined || requestId === undefined || tokenHash === undefined) return null
  if (expiresAt === undefined || link === undefined) return null
  return build({ common: { userId, email, requestId, tokenHash, expiresAt }, link })
}

/** Where the mail goes: the change-email confirmation to the current address, its follow-up to the new one. */
export const recipientOf = (event: MailEvent): string => {
  switch (event.type) {
    case 'user.email-change-requested':
      return event.data.currentEmail
    case 'user.email-change-confirmed':
      return event.data.newEmail
    default:
      return event.data.email
  }
}
