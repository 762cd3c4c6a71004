/// What one event means for its user's history: an entry to record, the whole history to forget,
/// or nothing. Pure, so every event type's details can be checked without a database.
///
/// What each event type shows is declared beside its aggregate (domain/events.ts): an allowlist of
/// details the owner may see about their own account (addresses, field names, session ids,
/// reasons). Hashes, request ids and token material never leave the log.

import { declarationOf } from '../../domain/events.js'
import type { ActivityDetails } from '../../domain/shared/event-declaration.js'
import type { EventMetadata } from '../../domain/shared/metadata.js'

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
  /** `deviceOfSession`: the session whose device the projection adds to the details. */
  | { kind: 'record'; entry: ActivityEntry; deviceOfSession: string | null }
  | { kind: 'forget'; userId: string }
  | null

const whereFrom = (
  source: ActivitySource,
  subject: string,
  declaration: {
    causedByOwner?: true
    showsAttemptOrigin?: true
    origin?: (data: Record<string, unknown>) => Origin
  },
): Origin => {
  const { actor, ip = null, userAgent = null } = source.metadata
  // An operator acting through an impersonation session is not the owner: their address stays theirs.
  const byOwner =
    source.metadata.impersonatedBy === undefined &&
    ((actor.type === 'user' && actor.userId === subject) || declaration.causedByOwner === true)
  // Anything else an anonymous caller can trigger (a reset mail for a known address) may come from
  // a stranger: their address and browser are not the owner's to see. A failed attempt on the
  // account is the exception its declaration names: where it came from is the point of the entry.
  if (!byOwner && declaration.showsAttemptOrigin !== true) return { ip: null, userAgent: null }
  const remembered = declaration.origin?.(source.data as Record<string, unknown>)
  return { ip: remembered?.ip ?? ip, userAgent: remembered?.userAgent ?? userAgent }
}

type Origin = { ip: string | null; userAgent: string | null }

export const activityChangeOf = (source: ActivitySource): ActivityChange => {
  const declaration = declarationOf(source.type)
  if (!declaration?.activity) return null
  const data = source.data as Record<string, unknown>
  const subject = declaration.subject(data, source.metadata)
  if (!subject) return null
  const { activity } = declaration
  if (activity === 'forget') return { kind: 'forget', userId: subject }
  const type = activity.type?.(data) ?? source.type
  const entry = {
    id: source.id,
    userId: subject,
    type,
    at: new Date(source.metadata.at),
    ...whereFrom(source, subject, activity),
    // Done while support impersonated the person: it reads as support acting on their behalf.
    details: source.metadata.impersonatedBy
      ? { ...activity.details(data), bySupport: true }
      : activity.details(data),
  }
  return { kind: 'record', entry, deviceOfSession: activity.deviceOfSession?.(data) ?? null }
}
