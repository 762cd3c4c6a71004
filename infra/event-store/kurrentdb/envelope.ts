/// A Tessera event as a KurrentDB record and back. The record's id is the event's id (a UUID, which
/// KurrentDB requires and uses to make a repeated append idempotent), its type the event's type, its
/// data the event's data as the encrypting store left it (personal fields sealed). Its metadata is
/// an envelope: Tessera's metadata under `tessera`, KurrentDB's `$correlationId`/`$causationId` for
/// its own tools, and on the first record of an append the unique-claim operations it made
/// (`claims`), which is what lets a later reader repair a claim a crash left half done (claims.ts).

import { stampEventVersion, upcastEvent } from '../../../domain/events.js'
import type { EventMetadata } from '../../../domain/shared/metadata.js'
import { type EventToAppend, type RecordedEvent, START, type UniqueClaim } from '../event-store.js'
import type { LogRecord, NewRecord } from './kurrent-log.js'
import type { StreamNames } from './stream-names.js'
import { globalPositionOf, versionOf } from './versions-and-positions.js'

type Envelope = {
  tessera: EventMetadata
  claims?: UniqueClaim[]
  $correlationId?: string
  $causationId?: string
}

export const recordOf = (unstamped: EventToAppend, claims: readonly UniqueClaim[] = []): NewRecord => {
  // Each event says which version of its type's shape it is written in (domain/shared/upcasting.ts).
  const event = stampEventVersion(unstamped)
  const envelope: Envelope = {
    tessera: event.metadata,
    $correlationId: event.metadata.correlationId,
    ...(event.metadata.causationId ? { $causationId: event.metadata.causationId } : {}),
    ...(claims.length > 0 ? { claims: [...claims] } : {}),
  }
  return { id: event.id, type: event.type, data: event.data as object, metadata: envelope }
}

const isEnvelope = (value: unknown): value is Envelope =>
  typeof value === 'object' && value !== null && typeof (value as Envelope).tessera === 'object'

/** The Tessera event a record holds; null for a record that is not one (another tool's, a `$` event). */
export const recordedEventOf = (record: LogRecord, names: StreamNames): RecordedEvent | null => {
  const streamId = names.tesseraStream(record.stream)
  if (
    streamId === null ||
    !isEnvelope(record.metadata) ||
    typeof record.data !== 'object' ||
    record.data === null
  )
    return null
  // Events of an older version are read in their type's current shape.
  return upcastEvent({
    id: record.id,
    type: record.type,
    data: record.data,
    metadata: record.metadata.tessera,
    streamId,
    streamVersion: versionOf(record.revision),
    // `$all` reads always carry it; a stream read without one (an older server) gets START, which
    // nothing on the command path reads (it uses versions).
    position: record.position ? globalPositionOf(record.position) : START,
    recordedAt: record.created,
  })
}

/** The claim operations an append recorded on its first record; [] on any other record. */
export const claimOperationsOf = (record: Pick<LogRecord, 'metadata'>): UniqueClaim[] =>
  isEnvelope(record.metadata) && Array.isArray(record.metadata.claims) ? record.metadata.claims : []
