/// The public event catalogue: which events an application may receive (the feed and webhooks),
/// derived from the internal declarations. One entry per internal event type that is public: the
/// public type it becomes, the field naming its subject, and the fields it exposes. Everything else
/// (internal names, token and password hashes, seats, subjects of sealing) never leaves.
///
/// Adding an entry is one line: `expose('internal.type', 'public.type', 'subjectField', [fields])`.
/// A field that is not a plain string gets its type in `FIELD_TYPES` (for the OpenAPI schema).
/// Personal fields follow the internal declaration: once the subject is erased they are dropped,
/// so a payload read after an erasure carries ids and types only.

import { declarationOf } from '../events.js'
import { commaSeparated } from '../organization/organization.upcasters.js'
import type { EventMetadata } from '../shared/metadata.js'

/** The catalogue's version, sent with every event so a receiver can tell an older shape. */
export const CATALOGUE_VERSION = '2026-11-28'

export type PublicEntry = {
  source: string
  type: string
  subject: string
  fields: readonly string[]
  /** The data as the public payload names it, when the internal shape differs (`role`, not `roles`). */
  view?: (data: object) => Record<string, unknown>
}

const expose = (
  source: string,
  type: string,
  subject: string,
  fields: readonly string[],
  view?: PublicEntry['view'],
): PublicEntry => ({ source, type, subject, fields, ...(view ? { view } : {}) })

const ORG = ['organizationId'] as const

export const PUBLIC_EVENTS: readonly PublicEntry[] = [
  expose('user.registered', 'user.created', 'userId', [
    'userId',
    'email',
    'name',
    'image',
    'emailVerified',
    'username',
  ]),
  expose('user.email-verified', 'user.email-verified', 'userId', ['userId', 'email']),
  expose('user.profile-updated', 'user.updated', 'userId', ['userId', 'name', 'image']),
  expose('user.email-changed', 'user.updated', 'userId', ['userId', 'email']),
  expose('user.username-changed', 'user.updated', 'userId', ['userId', 'username']),
  expose('user.role-set', 'user.updated', 'userId', ['userId', 'role']),
  expose('user.deleted', 'user.deleted', 'userId', ['userId']),
  expose('session.started', 'session.created', 'sessionId', ['sessionId', 'userId', 'expiresAt']),
  expose('session.revoked', 'session.revoked', 'sessionId', ['sessionId', 'userId', 'reason']),
  expose('session.expired', 'session.expired', 'sessionId', ['sessionId', 'userId']),
  expose('organization.created', 'organization.created', 'organizationId', [
    ...ORG,
    'name',
    'slug',
    'createdBy',
  ]),
  expose('organization.updated', 'organization.updated', 'organizationId', [...ORG, 'name', 'slug']),
  expose('organization.deleted', 'organization.deleted', 'organizationId', [...ORG, 'slug']),
  // Internally roles and team ids are arrays (version 2); the payload keeps better-auth's text.
  expose(
    'organization.member-added',
    'member.created',
    'memberId',
    [...ORG, 'memberId', 'userId', 'role'],
    commaSeparated,
  ),
  expose(
    'organization.member-role-updated',
    'member.updated',
    'memberId',
    [...ORG, 'memberId', 'userId', 'role', 'previousRole'],
    commaSeparated,
  ),
  expose('organization.member-removed', 'member.deleted', 'memberId', [
    ...ORG,
    'memberId',
    'userId',
    'reason',
  ]),
  expose(
    'organization.invitation-created',
    'invitation.created',
    'invitationId',
    [...ORG, 'invitationId', 'email', 'role', 'inviterId', 'expiresAt'],
    commaSeparated,
  ),
  expose('organization.invitation-renewed', 'invitation.renewed', 'invitationId', [
    ...ORG,
    'invitationId',
    'expiresAt',
  ]),
  expose('organization.invitation-accepted', 'invitation.accepted', 'invitationId', [
    ...ORG,
    'invitationId',
    'userId',
    'memberId',
  ]),
  expose('organization.invitation-rejected', 'invitation.rejected', 'invitationId', [
    ...ORG,
    'invitationId',
    'userId',
  ]),
  expose('organization.invitation-canceled', 'invitation.canceled', 'invitationId', [...ORG, 'invitationId']),
  expose('organization.team-created', 'team.created', 'teamId', [...ORG, 'teamId', 'name']),
  expose('organization.team-updated', 'team.updated', 'teamId', [...ORG, 'teamId', 'name']),
  expose('organization.team-removed', 'team.deleted', 'teamId', [...ORG, 'teamId']),
  expose('organization.team-member-added', 'team.member-added', 'teamId', [...ORG, 'teamId', 'userId']),
  expose('organization.team-member-removed', 'team.member-removed', 'teamId', [...ORG, 'teamId', 'userId']),
  expose('api-key.created', 'api-key.created', 'keyId', [
    'keyId',
    'userId',
    ...ORG,
    'name',
    'prefix',
    'start',
    'expiresAt',
  ]),
  expose('api-key.updated', 'api-key.updated', 'keyId', ['keyId', 'userId', ...ORG]),
  expose('api-key.enabled', 'api-key.enabled', 'keyId', ['keyId', 'userId', ...ORG]),
  expose('api-key.disabled', 'api-key.disabled', 'keyId', ['keyId', 'userId', ...ORG]),
  expose('api-key.deleted', 'api-key.deleted', 'keyId', ['keyId', 'userId', ...ORG, 'reason']),
  expose('api-key.expired', 'api-key.expired', 'keyId', ['keyId', 'userId', ...ORG, 'expiresAt']),
  // A factor is on once verified (`enabled`), never at the half-way `totp-secret-created`; codes,
  // challenges and trusted devices stay internal (they carry hashes and say nothing an app acts on).
  expose('two-factor.enabled', 'two-factor.enabled', 'userId', ['userId', 'method']),
  expose('two-factor.disabled', 'two-factor.disabled', 'userId', ['userId']),
  // The passkey's public key and credential id are not secrets, but an app has no use for them.
  expose('passkey.registered', 'passkey.added', 'passkeyId', [
    'passkeyId',
    'userId',
    'name',
    'deviceType',
    'backedUp',
  ]),
  expose('passkey.renamed', 'passkey.updated', 'passkeyId', ['passkeyId', 'userId', 'name']),
  expose('passkey.deleted', 'passkey.removed', 'passkeyId', ['passkeyId', 'userId']),
]

/** Field types other than a string (or null), for the published payload schema. */
export const FIELD_TYPES: Readonly<Record<string, 'boolean' | 'number'>> = {
  emailVerified: 'boolean',
  backedUp: 'boolean',
}

const BY_SOURCE = new Map(PUBLIC_EVENTS.map((entry) => [entry.source, entry]))

/** Every public event type, each once, in catalogue order. */
export const publicEventTypes = (): readonly string[] => [
  ...new Set(PUBLIC_EVENTS.map((entry) => entry.type)),
]

export const isPublicEventType = (type: string): boolean => PUBLIC_EVENTS.some((entry) => entry.type === type)

/** The catalogue entry an internal event type becomes; undefined when it stays internal. */
export const publicEntryOf = (internalType: string): PublicEntry | undefined => BY_SOURCE.get(internalType)

/** The internal event types a set of public types comes from. */
export const sourcesOf = (publicTypes: readonly string[]): string[] =>
  PUBLIC_EVENTS.filter((entry) => publicTypes.includes(entry.type)).map((entry) => entry.source)

export type PublicEvent = {
  id: string
  type: string
  occurredAt: string
  subject: string | null
  data: Record<string, unknown>
}

type SourceEvent = { id: string; type: string; data: object; metadata: EventMetadata }

/**
 * The public form of an internal event, or null when it is not public. Personal fields (as the
 * internal declaration names them) go only while the subject's data key exists: after erasure they
 * read as null in the log and are left out here, as are fields the event does not have.
 */
export const toPublicEvent = (event: SourceEvent): PublicEvent | null => {
  const entry = BY_SOURCE.get(event.type)
  if (!entry) return null
  const source = entry.view ? entry.view(event.data) : (event.data as Record<string, unknown>)
  const personal = new Set(declarationOf(event.type)?.personal ?? [])
  const data: Record<string, unknown> = {}
  for (const field of entry.fields) {
    const value = source[field]
    if (value === undefined) continue
    if (personal.has(field) && (event.metadata.erased === true || value === null)) continue
    data[field] = value
  }
  const subject = source[entry.subject]
  return {
    id: event.id,
    type: entry.type,
    occurredAt: event.metadata.at,
    subject: typeof subject === 'string' ? subject : null,
    data,
  }
}

/** The organization an event belongs to, when it belongs to one. */
export const organizationOf = (event: { data: object }): string | null => {
  const value = (event.data as Record<string, unknown>).organizationId
  return typeof value === 'string' ? value : null
}
