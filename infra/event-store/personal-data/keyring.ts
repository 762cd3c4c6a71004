/// Per-subject (user id) data keys, stored wrapped in `tessera_data_keys`. Unwrapped keys are
/// cached briefly because every `readStream` on the command path needs one; erasing a subject
/// replaces its row with a tombstone (no key), after which everything sealed under the key is
/// unreadable for good and no fresh key is ever made for that subject.
///
/// Keys are wrapped under AUTH_SECRET; a key still wrapped under a retired secret
/// (AUTH_SECRET_PREVIOUS) opens and is re-wrapped under the current one on first use, and
/// `rewrapAll` (the `tessera rotate-secret` command) does the rest in one pass. The same table keeps
/// the unique-claim key (claim-key.ts) under a reserved subject, so it travels with the data keys.

import { type Kysely, sql } from 'kysely'
import {
  FieldDecryptionError,
  generateDataKey,
  secretId,
  unwrapBytes,
  unwrapUnderAny,
  wrapBytes,
} from '../../crypto/data-keys.js'
import type { Secret } from '../../crypto/hmac.js'
import { secretList } from '../../crypto/signed-cookie.js'
import type { KeyRow } from '../sql-event-rows.js'
import { claimKeyOf, prepareClaimKey } from './hashed-claims.js'

export type Keyring = {
  /** The subject's key, created on first use; throws `SubjectErasedError` for an erased subject. */
  keyFor(subject: string): Promise<Buffer>
  /** The subject's key, or null when it was erased or never created. */
  existingKey(subject: string): Promise<Buffer | null>
  /**
   * `existingKey` for many subjects in one query; subjects without a key are absent from the map.
   * `read`: rows already read (with a stream's events, null for no row) since `mark`: the subjects
   * among them are not read again.
   */
  existingKeys(subjects: Iterable<string>, read?: ReadKeyRows): Promise<Map<string, Buffer>>
  /** Taken before reading rows elsewhere, for `existingKeys`: erasures seen since forbid caching them. */
  mark(): number
  /** Erases the subject (idempotent): its key is destroyed and a tombstone keeps it from coming back. */
  destroy(subject: string): Promise<void>
  /** Drops the subject's cached key here: another process erased it. */
  forget(subject: string): void
  /** Forgets every cached key (they are read again from the table when needed). */
  clearCache(): void
  /** Re-wraps under the current secret every key still wrapped under a retired one. */
  rewrapAll(options?: { batchSize?: number }): Promise<RewrapReport>
  /** The key material kept under a reserved subject (`tessera:` prefix), created by `create` once. */
  reservedKey(subject: `tessera:${string}`, create: () => Promise<Buffer>): Promise<Buffer>
  /** The key unique claims are hashed under (hashed-claims.ts); rotation does not change it. */
  claimKey(): Promise<Buffer>
  /** At start: fails when no accepted secret opens the claim key; adopts one for legacy claims. */
  prepareClaimKey(): Promise<void>
}

export type RewrapReport = {
  /** Keys that were under a retired secret and now are under the current one. */
  rewrapped: number
  /** Keys already under the current secret. */
  current: number
  /** Subjects whose key no accepted secret opens (wrapped under a secret no longer configured). */
  unreadable: string[]
}

export type KeyringOptions = {
  /**
   * How long an unwrapped key is trusted without looking at the table again. Bounds how long
   * another process that cached a key can still decrypt after this one erased the subject.
   */
  cacheTtlMs?: number
  cacheSize?: number
  now?: () => number
}

/** Short: an erasure on another instance must stop this one decrypting within seconds. */
export const DEFAULT_KEY_CACHE_TTL_MS = 5_000

type CachedKey = { key: Buffer; until: number }

/** Key rows read beside something else (sql-event-rows.ts), after the keyring's `mark` was taken. */
export type ReadKeyRows = { rows: ReadonlyMap<string, KeyRow | null>; mark: number }

// biome-ignore lint/suspicious/noExplicitAny: the keyring reads and writes its own table only
type Db = Kysely<any>

const DATA_KEY_BYTES = 32
const isReserved = (subject: string) => subject.startsWith('tessera:')

export class DataKeyUnavailableError extends Error {
  override readonly name = 'DataKeyUnavailableError'
  constructor(readonly subject: string) {
    super(
      `The data key of subject ${subject} cannot be unwrapped under AUTH_SECRET or AUTH_SECRET_PREVIOUS: ` +
        'was the secret that wrapped it removed before `tessera rotate-secret` re-wrapped it?',
    )
  }
}

export class SubjectErasedError extends Error {
  override readonly name = 'SubjectErasedError'
  constructor(readonly subject: string) {
    super(`subject ${subject} was erased: nothing may be sealed for it again`)
  }
}

/**
 * Tombstones for these subjects, in the caller's transaction: the append of the event that erases
 * them commits its erasure with it, so no crash can leave a deleted user's data readable.
 */
export const eraseSubjectsIn = async (db: Kysely<unknown>, subjects: readonly string[]): Promise<void> => {
  if (subjects.length === 0) return
  await sql`
    insert into tessera_data_keys (subject, wrapped_key, wrapped_by, erased_at)
    select subject, null, null, now() from unnest(${[...subjects]}::text[]) as erased(subject)
    on conflict (subject) do update
      set wrapped_key = null, wrapped_by = null,
          erased_at = coalesce(tessera_data_keys.erased_at, excluded.erased_at)`.execute(db)
}

/** `secrets`: the current secret first, then the retired ones (AUTH_SECRET_PREVIOUS). */
export const createKeyring = (
  db: Db,
  secrets: Secret | readonly Secret[],
  options: KeyringOptions = {},
): Keyring => {
  const accepted = secretList(secrets)
  const [current] = accepted
  if (current === undefined) throw new Error('a keyring needs at least one secret')
  const currentId = secretId(current)
  const { cacheTtlMs = DEFAULT_KEY_CACHE_TTL_MS, cacheSize = 10_000, now = Date.now } = options
  const cache = new Map<string, CachedKey>()
  // Bumped by every erasure seen here, so a lookup that overlapped one does not cache what it read.
  let erasures = 0

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

  const wrap = (subject: string, key: Uint8Array) => wrapBytes(current, key, subject)

  /** Opens a row under whichever accepted secret wrapped it; throws `DataKeyUnavailableError`. */
  const open = (row: KeyRow & { wrapped_key: string }): { key: Buffer; stale: boolean } => {
    try {
      const { key, secretIndex } = unwrapUnderAny(accepted, row.wrapped_key, row.subject, unwrapBytes)
      if (!isReserved(row.subject) && key.length !== DATA_KEY_BYTES)
        throw new FieldDecryptionError('malformed')
      return { key, stale: secretIndex !== 0 || row.wrapped_by !== currentId }
    } catch (error) {
      if (error instanceof FieldDecryptionError) throw new DataKeyUnavailableError(row.subject)
      throw error
    }
  }

  /** Compare-and-set: an erasure or another re-wrap that got there first wins. */
  const rewrap = async (row: KeyRow & { wrapped_key: string }, key: Buffer): Promise<void> => {
    await sql`
      update tessera_data_keys set wrapped_key = ${wrap(row.subject, key)}, wrapped_by = ${currentId}
      where subject = ${row.subject} and wrapped_key = ${row.wrapped_key}`.execute(db)
  }

  /**
   * The rows of these subjects, read with those every other lookup asked for in the same turn of
   * the event loop: concurrent commands (each opening its own person's events) share one statement
   * instead of one each. Every lookup still reads the table after it was asked.
   */
  let pending: { subjects: Set<string>; rows: Promise<KeyRow[]> } | null = null
  const readRows = (subjects: readonly string[]): Promise<KeyRow[]> => {
    if (!pending) {
      const batch = new Set<string>()
      const rows = new Promise<KeyRow[]>((resolve, reject) =>
        setImmediate(() => {
          if (pending?.subjects === batch) pending = null
          sql<KeyRow>`
            select subject, wrapped_key, wrapped_by from tessera_data_keys
            where subject = any(${[...batch]}::text[])`
            .execute(db)
            .then(({ rows: read }) => resolve(read), reject)
        }),
      )
      pending = { subjects: batch, rows }
    }
    for (const subject of subjects) pending.subjects.add(subject)
    return pending.rows
  }

  /** The row's key (null: erased or none), cached unless an erasure was seen since `before`. */
  const keyOfRow = async (row: KeyRow | null, before: number): Promise<Buffer | null> => {
    if (row?.wrapped_key == null) return null
    const readable = { ...row, wrapped_key: row.wrapped_key }
    const { key, stale } = open(readable)
    // Re-wrapped on first use after a rotation, so the retired secret can be dropped sooner.
    if (stale) await rewrap(readable, key)
    return before === erasures ? remember(row.subject, key) : key
  }

  const existingKeys = async (
    subjects: Iterable<string>,
    read?: ReadKeyRows,
  ): Promise<Map<string, Buffer>> => {
    const found = new Map<string, Buffer>()
    const missing: string[] = []
    for (const subject of new Set(subjects)) {
      const key = cached(subject)
      if (key) found.set(subject, key)
      else if (read?.rows.has(subject)) {
        const opened = await keyOfRow(read.rows.get(subject) ?? null, read.mark)
        if (opened) found.set(subject, opened)
      } else missing.push(subject)
    }
    if (missing.length === 0) return found
    const before = erasures
    const wanted = new Set(missing)
    for (const row of await readRows(missing)) {
      if (!wanted.has(row.subject)) continue
      const key = await keyOfRow(row, before)
      if (key) found.set(row.subject, key)
    }
    return found
  }

  const forget = (subject: string) => {
    // Lookups that began before the erasure committed may still hold the row: they must not cache it.
    erasures += 1
    // Not zeroed in place: an append that holds this buffer must not go on sealing under zeros.
    cache.delete(subject)
  }

  const keyring: Keyring = {
    async keyFor(subject) {
      const known = cached(subject)
      if (known) return known
      // One statement whether the key exists or not: the insert of a fresh key does nothing when
      // the subject has a row, and the select then returns that row, seen in the statement's
      // snapshot. An erased subject's tombstone is a row too (without a key), so no fresh key
      // ever replaces a destroyed one. Only a first key created by a concurrent writer after the
      // snapshot returns no row: then it is read again.
      const fresh = generateDataKey()
      const before = erasures
      const { rows } = await sql<KeyRow & { created: boolean }>`
        with created as (
          insert into tessera_data_keys (subject, wrapped_key, wrapped_by)
          values (${subject}, ${wrap(subject, fresh)}, ${currentId})
          on conflict (subject) do nothing
          returning subject, wrapped_key, wrapped_by)
        select subject, wrapped_key, wrapped_by, true as created from created
        union all
        select subject, wrapped_key, wrapped_by, false as created from tessera_data_keys
        where subject = ${subject} and not exists (select from created)`.execute(db)
      const row = rows[0]
      if (row?.created) return remember(subject, fresh)
      if (row && row.wrapped_key === null) throw new SubjectErasedError(subject)
      if (row?.wrapped_key) {
        const readable = { ...row, wrapped_key: row.wrapped_key }
        const { key, stale } = open(readable)
        if (stale) await rewrap(readable, key)
        return before === erasures ? remember(subject, key) : key
      }
      const key = (await existingKeys([subject])).get(subject)
      if (!key) throw new SubjectErasedError(subject)
      return key
    },

    async existingKey(subject) {
      return (await existingKeys([subject])).get(subject) ?? null
    },

    existingKeys,

    mark: () => erasures,

    async destroy(subject) {
      await eraseSubjectsIn(db, [subject])
      forget(subject)
    },

    forget,

    clearCache() {
      cache.clear()
    },

    async rewrapAll({ batchSize = 500 } = {}) {
      const report: RewrapReport = { rewrapped: 0, current: 0, unreadable: [] }
      let after = ''
      for (;;) {
        const { rows } = await sql<KeyRow>`
          select subject, wrapped_key, wrapped_by from tessera_data_keys
          where wrapped_key is not null and subject > ${after}
          order by subject limit ${batchSize}`.execute(db)
        for (const row of rows) {
          after = row.subject
          if (row.wrapped_key === null) continue
          if (row.wrapped_by === currentId) {
            report.current += 1
            continue
          }
          const readable = { ...row, wrapped_key: row.wrapped_key }
          try {
            await rewrap(readable, open(readable).key)
            report.rewrapped += 1
          } catch (error) {
            if (!(error instanceof DataKeyUnavailableError)) throw error
            report.unreadable.push(row.subject)
          }
        }
        if (rows.length < batchSize) return report
      }
    },

    async reservedKey(subject, create) {
      const found = await existingKeys([subject])
      const known = found.get(subject)
      if (known) return known
      const material = await create()
      await sql`
        insert into tessera_data_keys (subject, wrapped_key, wrapped_by)
        values (${subject}, ${wrap(subject, material)}, ${currentId})
        on conflict (subject) do nothing`.execute(db)
      // Another process may have created it first: its key is the one.
      const key = (await existingKeys([subject])).get(subject)
      if (!key) throw new Error(`the reserved key ${subject} could not be created`)
      return key
    },

    claimKey: () => claimKeyOf(db, keyring, current),

    prepareClaimKey: () => prepareClaimKey(db, keyring, current),
  }
  return keyring
}
