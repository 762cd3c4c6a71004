/// Which fields of an event hold personal data or secrets, and whose they are: read from each event
/// type's declaration (domain/events.ts), where the types demand one for every event type, so a new
/// event cannot slip in unsealed. Sealed with the data key of the event's subject, they become
/// unreadable when that subject is erased.

import { declarationOf } from '../../../domain/events.js'
import type { EventMetadata } from '../../../domain/shared/metadata.js'

export { subjectOf } from '../../../domain/events.js'

/** Sealed in every event that has a subject: where a person was, and with what browser. */
export const PERSONAL_METADATA_FIELDS = [
  'ip',
  'userAgent',
] as const satisfies readonly (keyof EventMetadata)[]

export type PersonalMetadataField = (typeof PERSONAL_METADATA_FIELDS)[number]

const pathsByType = new Map<string, readonly (readonly string[])[]>()

/** Paths (split at dots) of the personal fields in an event's data; empty for undeclared types. */
export const personalDataPaths = (type: string): readonly (readonly string[])[] => {
  let paths = pathsByType.get(type)
  if (!paths) {
    paths = (declarationOf(type)?.personal ?? []).map((path) => path.split('.'))
    pathsByType.set(type, paths)
  }
  return paths
}
