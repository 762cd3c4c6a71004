/// Seals and opens the personal fields of one event with its subject's data key. Each field is
/// sealed on its own (AES-256-GCM) with the event id and the field's path as associated data, so
/// a sealed value cannot be copied into another event or field and still open.

import type { EventMetadata } from '../../../domain/shared/metadata.js'
import { decryptField, encryptField, FieldDecryptionError } from '../../crypto/data-keys.js'
import type { PlainFields } from './appended-plaintext.js'
import { PERSONAL_METADATA_FIELDS, personalDataPaths, subjectOf } from './personal-fields.js'

export type CipherEvent = { id: string; type: string; data: object; metadata: EventMetadata }

type Fields = Record<string, unknown>

const isRecord = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const valueAt = (root: Fields, path: readonly string[]): unknown =>
  path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), root)

/** A copy of `root` with the value at `path` replaced; unchanged when the value is absent or null. */
const updateAt = (root: Fields, path: readonly string[], update: (value: unknown) => unknown): Fields => {
  const [head, ...rest] = path
  if (head === undefined) return root
  const current = root[head]
  if (current === undefined || current === null) return root
  if (rest.length === 0) return { ...root, [head]: update(current) }
  return isRecord(current) ? { ...root, [head]: updateAt(current, rest, update) } : root
}

const dataField = (path: readonly string[]) => `data.${path.join('.')}`
const metadataField = (field: string) => `metadata.${field}`
const aad = (eventId: string, field: string) => `${eventId}:${field}`

const asRecord = (data: object): Fields => (isRecord(data) ? data : {})

/**
 * The subject whose key the event needs, or null when it holds no personal value to seal or open
 * (`withMetadata` false: none in its data, its metadata's being left unopened).
 */
export const subjectToSeal = (event: CipherEvent, withMetadata = true): string | null => {
  const data = asRecord(event.data)
  const hasData = personalDataPaths(event.type).some((path) => valueAt(data, path) != null)
  const subject = subjectOf(event)
  if (hasData && subject === null)
    throw new Error(`${event.type} ${event.id} holds personal data but no userId`)
  if (subject === null) return null
  if (hasData) return subject
  if (!withMetadata) return null
  return PERSONAL_METADATA_FIELDS.some((field) => event.metadata[field] != null) ? subject : null
}

export const sealEvent = <Event extends CipherEvent>(event: Event, key: Uint8Array): Event =>
  sealKeepingPlain(event, key).sealed

/** The event sealed, and the JSON text of each field it sealed (appended-plaintext.ts holds them). */
export const sealKeepingPlain = <Event extends CipherEvent>(
  event: Event,
  key: Uint8Array,
): { sealed: Event; plain: PlainFields } => {
  const plain = new Map<string, string>()
  const sealField = (field: string, value: unknown) => {
    const text = JSON.stringify(value)
    plain.set(field, text)
    return encryptField(key, text, aad(event.id, field))
  }
  let data = asRecord(event.data)
  for (const path of personalDataPaths(event.type))
    data = updateAt(data, path, (value) => sealField(dataField(path), value))
  const metadata: EventMetadata = { ...event.metadata }
  for (const field of PERSONAL_METADATA_FIELDS) {
    const value = metadata[field]
    if (value !== null) metadata[field] = sealField(metadataField(field), value)
  }
  return { sealed: { ...event, data, metadata }, plain }
}

/** Opens one field: from the plaintext this process sealed it from when given, else by decrypting. */
type FieldOpener = (sealed: unknown, field: string) => unknown

const openerOf =
  (eventId: string, key: Uint8Array, plain: PlainFields | undefined): FieldOpener =>
  (sealed, field) => {
    const text = plain?.get(field)
    if (text !== undefined) return JSON.parse(text)
    if (typeof sealed !== 'string') throw new FieldDecryptionError('malformed')
    return JSON.parse(decryptField(key, sealed, aad(eventId, field)))
  }

/**
 * The event with its personal fields readable; with them null and `metadata.erased` set when the
 * key is gone. A key created after the subject's first one was destroyed fails authentication on
 * the old values: those are erased too. `withMetadata` false: the metadata's personal fields are
 * given null, unopened (for a reader that never reads them: a decryption each). `plain`: the fields'
 * plaintexts, when this process sealed this very event under this key (appended-plaintext.ts).
 */
export const openEvent = <Event extends CipherEvent>(
  event: Event,
  key: Uint8Array | null,
  withMetadata = true,
  plain?: PlainFields,
): Event => {
  if (key) {
    try {
      return openWith(event, openerOf(event.id, key, plain), withMetadata)
    } catch (error) {
      if (!(error instanceof FieldDecryptionError && error.reason === 'authentication-failed')) throw error
    }
  }
  return erase(event)
}

const openWith = <Event extends CipherEvent>(
  event: Event,
  open: FieldOpener,
  withMetadata: boolean,
): Event => {
  let data = asRecord(event.data)
  for (const path of personalDataPaths(event.type))
    data = updateAt(data, path, (sealed) => open(sealed, dataField(path)))
  const metadata: EventMetadata = { ...event.metadata }
  for (const field of PERSONAL_METADATA_FIELDS) {
    const sealed = metadata[field]
    if (sealed === null || !withMetadata) metadata[field] = null
    else {
      const value = open(sealed, metadataField(field))
      metadata[field] = typeof value === 'string' ? value : null
    }
  }
  return { ...event, data, metadata }
}

/** The event with its metadata's personal fields null, unopened; its data as it is (it holds none). */
export const withoutPersonalMetadata = <Event extends CipherEvent>(event: Event): Event => {
  const metadata: EventMetadata = { ...event.metadata }
  for (const field of PERSONAL_METADATA_FIELDS) metadata[field] = null
  return { ...event, metadata }
}

const erase = <Event extends CipherEvent>(event: Event): Event => {
  let data = asRecord(event.data)
  for (const path of personalDataPaths(event.type)) data = updateAt(data, path, () => null)
  const metadata: EventMetadata = { ...event.metadata, erased: true }
  for (const field of PERSONAL_METADATA_FIELDS) metadata[field] = null
  return { ...event, data, metadata }
}
