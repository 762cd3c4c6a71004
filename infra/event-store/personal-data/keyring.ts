/// Per-subject (user id) data keys, stored wrapped in `tessera_data_keys`. Unwrapped keys are
/// cached because every `readStream` on the command path needs one; `destroy` deletes the row and
/// evicts the key, after which everything sealed under it is unreadable for good.

import { type Kysely, sql } from 'kysely'
import { generateDataKey, unwrapKey, wrapKey } from '../../crypto/data-keys.js'
import type { Secret } from '../../crypto/hmac.js'

export type Keyring = {
  /** The subject's key, created on first use. */
  keyFor(subject: string): Promise<Buffer>
  /** The subject's key, or null when it was destroyed or never created. */
  existingKey(subject: string): Promise<Buffer | null>
  /** `existingKey` for many subjects in one query; subjects without a key are absent from the map. */
  existingKeys(subjects: Iterable<string>): Promise<Map<string, Buffer>>
  destroy(subject: string): Promise<void>
  /** Forgets every cached key (they are read again from the table when needed). */
  clearCache(): void
}

export type KeyringOptions = {
  /**
   * How long an unwrapped key is trusted without looking at the table again. Bounds how long
   * another process that cached a key can still decrypt after this one destroyed it.
   */
  cacheTtlMs?: number
  cacheSize?: number
  now?: () => number
}

type CachedKey = { key: Buffer; until: number }
type KeyRow = { subject: string; wrapped_key: string }

// biome-ignore lint/suspicious/noExplicitAny: the keyring reads and writes its own table only
type Db = Kysely<any>

export class DataKeyUnavailableError extends Error {
  override readonly name = 'DataKeyUnavailableError'
  constructor(readonly subject: string) {
    super(`The data key of subject ${subject} cannot be unwrapped: was AUTH_SECRET changed?`)
  }
}

export const createKeyring = (db: Db, secret: Secret, options: KeyringOptions = {}): Keyring => {
  const { cacheTtlMs = 10 * 60_000, cacheSize = 10_000, now = Date.now } = options
  const cache = new Map<string, CachedKey>()
  // Bumped by every destroy, so a lookup that overlapped one does not cache what it read.
  let destroys = 0

  const cached = (subject: string): Buffer | null => {
    const entry = cache.get(subject)
    if (!entry) return null
    if (entry.until > now()) return entry.key
    cache.delete(subject)
    return null
  }

  const remember = (subject: string, key: Buffer): Buffer => {
    cache.delete(subject)
    // Map keeps insertion order: the first entry is the one cached longest ago.
    if (cache.size >= cacheSize) {
      const oldest = cache.keys().next()
      if (!oldest.done) cache.delete(oldest.value)
    }
    cache.set(subject, { key, until: now() + cacheTtlMs })
    return key
  }

  const unwrap = (row: KeyRow): Buffer => {
    try {
      return unwrapKey(secret, row.wrapped_key, row.subject)
    } catch {
      throw new DataKeyUnavailableError(row.subject)
    }
  }

  const existingKeys = async (subjects: Iterable<string>): Promise<Map<string, Buffer>> => {
    const found = new Map<string, Buffer>()
    const missing: string[] = []
    for (const subject of new Set(subjects)) {
      const key = cached(subject)
      if (key) found.set(subject, key)
      else missing.push(subject)
    }
    if (missing.length === 0) return found
    const before = destroys
    const { rows } = await sql<KeyRow>`
      select subject, wrapped_key from tessera_data_keys where subject = any(${missing}::text[])`.execute(db)
    for (const row of rows) {
      const key = unwrap(row)
      found.set(row.subject, before === destroys ? remember(row.subject, key) : key)
    }
    return found
  }

  return {
    async keyFor(subject) {
      const known = cached(subject)
      if (known) return known
      // Two writers may create the first key at once: one insert wins, the other reads the winner.
      const fresh = generateDataKey()
      const { rows } = await sql<KeyRow>`
        insert into tessera_data_keys (subject, wrapped_key)
        values (${subject}, ${wrapKey(secret, fresh, subject)})
        on conflict (subject) do nothing
        returning subject, wrapped_key`.execute(db)
      if (rows.length > 0) return remember(subject, fresh)
      const key = (await existingKeys([subject])).get(subject)
      if (!key) throw new Error(`the data key of subject ${subject} was destroyed while being created`)
      return key
    },

    async existingKey(subject) {
      return (await existingKeys([subject])).get(subject) ?? null
    },

    existingKeys,

    async destroy(subject) {
      await sql`delete from tessera_data_keys where subject = ${subject}`.execute(db)
      // Lookups that began before the delete committed may still hold the row: they must not cache it.
      destroys += 1
      // Not zeroed in place: an append that holds this buffer must not go on sealing under zeros.
      cache.delete(subject)
    },

    clearCache() {
      cache.clear()
    },
  }
}
