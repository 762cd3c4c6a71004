/// Which fields of which events hold personal data or secrets. These are sealed with the data key
/// of the event's subject (the user the event is about) and become unreadable when it is erased.
/// Every user and session event type must be listed (an empty list says "nothing personal"), so a
/// new event cannot slip in unsealed; the types also reject a misspelt event or field.

import type { SessionEvent } from '../../../domain/session/session.js'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import type { UserEvent } from '../../../domain/user/user.events.js'

type KnownEvent = UserEvent | SessionEvent
type DataOf<Type extends KnownEvent['type']> = Extract<KnownEvent, { type: Type }>['data']
/** `field`, or `field.child` one level down when the field holds an object. */
type FieldPath<Data> = {
  [Key in keyof Data & string]: NonNullable<Data[Key]> extends object
    ? Key | `${Key}.${keyof NonNullable<Data[Key]> & string}`
    : Key
}[keyof Data & string]
type Declaration = { readonly [Type in KnownEvent['type']]: readonly FieldPath<DataOf<Type>>[] }

export const PERSONAL_DATA_FIELDS = {
  'user.registered': ['email', 'name', 'image', 'credential.passwordHash'],
  'user.verification-email-requested': ['email'],
  'user.email-verified': ['email'],
  'user.password-reset-requested': ['email'],
  'user.password-reset': ['passwordHash'],
  'user.password-changed': ['passwordHash'],
  'user.password-set': ['passwordHash'],
  'user.profile-updated': ['name', 'image'],
  'user.email-change-requested': ['currentEmail', 'newEmail'],
  'user.email-change-confirmed': ['currentEmail', 'newEmail'],
  'user.email-changed': ['previousEmail', 'email'],
  'user.deletion-requested': ['email'],
  'user.token-discarded': [],
  'user.deleted': ['email'],
  'session.started': ['ipAddress', 'userAgent'],
  'session.refreshed': [],
  'session.revoked': [],
  'session.expired': [],
} as const satisfies Declaration

/** Sealed in every event that has a subject: where a person was, and with what browser. */
export const PERSONAL_METADATA_FIELDS = [
  'ip',
  'userAgent',
] as const satisfies readonly (keyof EventMetadata)[]

export type PersonalMetadataField = (typeof PERSONAL_METADATA_FIELDS)[number]

const dataFields: ReadonlyMap<string, readonly (readonly string[])[]> = new Map(
  Object.entries(PERSONAL_DATA_FIELDS).map(([type, paths]) => [type, paths.map((path) => path.split('.'))]),
)

/** Paths (split at dots) of the personal fields in an event's data; empty for other types. */
export const personalDataPaths = (type: string): readonly (readonly string[])[] => dataFields.get(type) ?? []

/**
 * Whose personal data an event holds: its `data.userId`; failing that, the user who acted (for
 * events such as `session.refreshed` whose metadata still says where that user was). Neither
 * value is sealed, so reading finds the same subject that writing used.
 */
export const subjectOf = (event: { data: object; metadata: EventMetadata }): string | null => {
  const userId = 'userId' in event.data ? event.data.userId : undefined
  if (typeof userId === 'string' && userId !== '') return userId
  return event.metadata.actor.type === 'user' ? event.metadata.actor.userId : null
}
