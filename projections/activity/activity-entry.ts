/// What one event means for its user's history: an entry to record, the whole history to forget,
/// or nothing. Pure, so every event type's details can be checked without a database.
///
/// Details are an allowlist per type: only what the owner may see about their own account
/// (addresses, field names, session ids, reasons). Hashes, request ids and token material never
/// leave the log; an event type added later shows with empty details until it is listed here.

import type { SessionEvent } from '../../domain/session/session.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import type { ActivityDetails } from './activity.table.js'

type KnownEvent = UserEvent | SessionEvent

export type ActivitySource = { id: string; type: string; data: object; metadata: EventMetadata }

export type ActivityEntry = {
  id: string
  userId: string
  type: string
  at: Date
  ip: string | null
  userAgent: string | null
  details: ActivityDetails
}

export type ActivityChange =
  | { kind: 'record'; entry: ActivityEntry }
  | { kind: 'forget'; userId: string }
  | null

/** The name a sign-out has in the history (the portal words it "You signed out"). */
export const SIGNED_OUT = 'user.signed-out'

/**
 * Events whose cause proved they were the account's owner (the password, a session, or a link
 * mailed to them) even when no signed-in user acted. Any other event an anonymous caller can
 * trigger (a reset or verification mail for a known address) may come from a stranger: their
 * address and browser are not the owner's to see.
 */
const CAUSED_BY_OWNER: ReadonlySet<string> = new Set([
  'user.registered',
  'user.email-verified',
  'user.password-reset',
  'user.email-change-confirmed',
  'user.email-changed',
  'session.started',
])

const changedFields = (data: object): string[] =>
  ['name', 'image'].filter((field) => field in data && (data as Record<string, unknown>)[field] !== undefined)

/** The details for a known type; null for events that say nothing to a person. */
const detailsOf = (event: KnownEvent): ActivityDetails | null => {
  switch (event.type) {
    case 'user.registered':
      return { email: event.data.email, emailVerified: event.data.emailVerified }
    case 'user.verification-email-requested':
    case 'user.email-verified':
    case 'user.password-reset-requested':
    case 'user.deletion-requested':
      return { email: event.data.email }
    case 'user.password-reset':
    case 'user.password-changed':
    case 'user.password-set':
      return {}
    case 'user.profile-updated':
      return { fields: changedFields(event.data) }
    case 'user.email-change-requested':
      return { currentEmail: event.data.currentEmail, newEmail: event.data.newEmail }
    case 'user.email-change-confirmed':
      return { newEmail: event.data.newEmail }
    case 'user.email-changed':
      return { previousEmail: event.data.previousEmail, email: event.data.email }
    case 'session.started':
      return { sessionId: event.data.sessionId, rememberMe: event.data.rememberMe }
    case 'session.revoked':
      return { sessionId: event.data.sessionId, reason: event.data.reason }
    case 'session.expired':
      return { sessionId: event.data.sessionId }
    // Housekeeping: a sliding expiry moved, an expired token was thrown away.
    case 'session.refreshed':
    case 'user.token-discarded':
      return null
    // Handled before details are asked for; listed so the switch names every known type.
    case 'user.deleted':
      return null
    default:
      return {}
  }
}

const userIdOf = (data: object): string | null => {
  const userId = 'userId' in data ? data.userId : undefined
  return typeof userId === 'string' && userId !== '' ? userId : null
}

const whereFrom = (event: KnownEvent, metadata: EventMetadata, userId: string) => {
  const { actor, ip = null, userAgent = null } = metadata
  const byOwner = (actor.type === 'user' && actor.userId === userId) || CAUSED_BY_OWNER.has(event.type)
  if (!byOwner) return { ip: null, userAgent: null }
  // A session remembers the device it started on; the request's metadata is the fallback.
  if (event.type === 'session.started')
    return { ip: event.data.ipAddress ?? ip, userAgent: event.data.userAgent ?? userAgent }
  return { ip, userAgent }
}

export const activityChangeOf = (source: ActivitySource): ActivityChange => {
  if (!source.type.startsWith('user.') && !source.type.startsWith('session.')) return null
  const userId = userIdOf(source.data)
  if (!userId) return null
  if (source.type === 'user.deleted') return { kind: 'forget', userId }
  const event = source as unknown as KnownEvent
  const details = detailsOf(event)
  if (!details) return null
  const type = event.type === 'session.revoked' && event.data.reason === 'sign-out' ? SIGNED_OUT : source.type
  const at = new Date(source.metadata.at)
  const where = whereFrom(event, source.metadata, userId)
  return { kind: 'record', entry: { id: source.id, userId, type, at, ...where, details } }
}
