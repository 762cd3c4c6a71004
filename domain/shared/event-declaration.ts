/// What the rest of Tessera must know about each event type, declared once beside its aggregate:
/// whose personal data it holds (the subject, under whose key it is sealed), which fields are
/// personal, how it reads in the subject's activity feed, and which cached sessions it makes stale.
/// `domain/events.ts` gathers every aggregate's declarations; the types demand one per event type.

import type { DomainEvent } from './event.js'
import type { EventMetadata } from './metadata.js'

/** `field`, or `field.child` one level down when the field holds an object. */
export type FieldPath<Data> = {
  [Key in keyof Data & string]: NonNullable<Data[Key]> extends object
    ? Key | `${Key}.${keyof NonNullable<Data[Key]> & string}`
    : Key
}[keyof Data & string]

/** What an activity entry shows; only what the subject may see about their own account. */
export type ActivityDetails = Record<string, unknown>

export type ActivityDeclaration<Data> =
  /** Not shown: housekeeping that says nothing to a person. */
  | null
  /** The subject is gone: their whole history is forgotten. */
  | 'forget'
  | {
      details: (data: Data) => ActivityDetails
      /** The feed's name for this entry when it differs from the event type. */
      type?: (data: Data) => string
      /**
       * The cause proved it was the account's owner (the password, a session, or a link mailed to
       * them) even when no signed-in user acted, so the entry may show where it came from.
       */
      causedByOwner?: true
      /** Where the owner was, when the event remembers it better than the request's metadata. */
      origin?: (data: Data) => { ip: string | null; userAgent: string | null }
      /**
       * The event records an attempt on the account that failed, by whoever made it (maybe a
       * stranger, so not `causedByOwner`); the entry shows where the attempt came from all the same,
       * because that is what lets the owner tell their own typo from someone else's guess.
       */
      showsAttemptOrigin?: true
      /**
       * The session whose device the entry names (a revocation names the device signed out, not the
       * one that did it). Details are a pure function of the data, and a revocation does not carry
       * the device, so the activity projection adds it: `userAgent`, `ip` and `place` as that
       * session's own `session.started` entry recorded them, when it has one.
       */
      deviceOfSession?: (data: Data) => string
    }

export type EventDeclaration<Data> = {
  /** The person the event is about; null when it concerns nobody in particular. */
  subject: (data: Data, metadata: EventMetadata) => string | null
  /** Personal fields of `data`, sealed under the subject's key and erased with it. */
  personal: readonly FieldPath<Data>[]
  activity: ActivityDeclaration<Data>
  /** Cached sessions that become stale: the one named in `data.sessionId`, or all of the subject's. */
  invalidates: 'session' | 'subject-sessions' | 'nothing'
}

/** One declaration for every type of an aggregate's event union, and for no other type. */
export type EventDeclarations<Event extends DomainEvent> = {
  readonly [Type in Event['type']]: EventDeclaration<Extract<Event, { type: Type }>['data']>
}

/** The usual subject: the user named in the event's data. */
export const subjectIsDataUser = (data: { userId: string }): string => data.userId
