/// An in-process cache of API keys by hash, so that verifying a known key reads nothing. It holds a
/// key's settings (owner, enabled, expiry, limits, permissions), never its counters, and follows
/// the session cache's rule (docs/architecture.md, "Consistency"):
///
/// - it exists only in a process that projects, and is trusted only while that projector runs
///   (app/server/tessera.ts): another instance's change reaches it only through the projector;
/// - every event that changes or ends a key evicts it, in this process as the append returns, and
///   in every other as its projector applies the event (it wakes on the commit's notification);
/// - a value read from the database is kept only if nothing was evicted meanwhile (`generation`).
///
/// What a cached key cannot see at once on another instance (until its projector has read the
/// event, normally milliseconds) is held by the database: metered and rate-limited keys are counted
/// by an UPDATE guarded by the inline refusal columns, so they stop at the commit everywhere.

import type { VerifiableApiKey } from '../../http/ports/api-key-records.js'
import { type ApiKeyJson, apiKeyJson } from '../../http/presenters/api-key-json.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'

const MAX_ENTRIES = 50_000

/** A key as verification needs it, parsed once. */
export type CachedApiKey = {
  id: string
  userId: string | null
  organizationId: string | null
  enabled: boolean
  expiresAt: number | null
  createdAt: Date
  permissions: Record<string, string[]> | null
  /** A usage limit (`remaining` is counted): every verification takes one, exactly. */
  metered: boolean
  refillAmount: number | null
  refillInterval: number | null
  rateLimited: { windowMs: number; max: number } | null
  /** The key as verify answers it; the counters a verification moves are filled in per answer. */
  json: ApiKeyJson
}

export const cachedKeyOf = (row: VerifiableApiKey): CachedApiKey => ({
  id: row.id,
  userId: row.user_id,
  organizationId: row.organization_id,
  enabled: row.enabled && !row.disabled,
  expiresAt: row.expires_at === null ? null : new Date(row.expires_at).getTime(),
  createdAt: new Date(row.created_at),
  permissions: row.permissions === null ? null : (JSON.parse(row.permissions) as Record<string, string[]>),
  metered: row.remaining !== null,
  refillAmount: row.refill_amount,
  refillInterval: row.refill_interval,
  rateLimited:
    row.rate_limit_enabled && row.rate_limit_time_window !== null && row.rate_limit_max !== null
      ? { windowMs: row.rate_limit_time_window, max: row.rate_limit_max }
      : null,
  json: apiKeyJson(row),
})

export type ApiKeyCache = {
  get(keyHash: string): CachedApiKey | undefined
  /** Changes whenever anything is evicted; take it before reading the database. */
  generation(): number
  /** Keeps a key read while `generation` held; ignored if an eviction happened since. */
  set(keyHash: string, key: CachedApiKey, generation: number): void
  /** Applied events, or this process's own as it appends them. */
  evictFor(events: readonly Pick<RecordedEvent, 'type' | 'data'>[]): void
}

/** Events after which a key must be read again: its settings changed, or it (or its owner) went. */
const KEY_EVENTS = new Set([
  'api-key.updated',
  'api-key.enabled',
  'api-key.disabled',
  'api-key.deleted',
  'api-key.expired',
])

export const createApiKeyCache = (): ApiKeyCache => {
  const byHash = new Map<string, CachedApiKey>()
  const hashById = new Map<string, string>()
  const hashesByOwner = new Map<string, Set<string>>()
  let generation = 0

  const ownerOf = (key: CachedApiKey) => key.userId ?? `organization:${key.organizationId}`

  const evict = (hash: string) => {
    const key = byHash.get(hash)
    if (!key) return
    byHash.delete(hash)
    hashById.delete(key.id)
    hashesByOwner.get(ownerOf(key))?.delete(hash)
  }
  const evictOwner = (owner: string) => {
    for (const hash of [...(hashesByOwner.get(owner) ?? [])]) evict(hash)
    hashesByOwner.delete(owner)
  }

  return {
    get: (hash) => byHash.get(hash),
    generation: () => generation,
    set(hash, key, readAt) {
      // A read that raced with an eviction may hold a disabled or deleted key: do not keep it.
      if (readAt !== generation) return
      if (byHash.size >= MAX_ENTRIES) {
        const oldest = byHash.keys().next().value
        if (oldest !== undefined) evict(oldest)
      }
      byHash.set(hash, key)
      hashById.set(key.id, hash)
      const owner = ownerOf(key)
      const hashes = hashesByOwner.get(owner) ?? new Set<string>()
      hashes.add(hash)
      hashesByOwner.set(owner, hashes)
    },
    evictFor(events) {
      let touched = false
      for (const event of events) {
        const data = event.data as { keyId?: unknown; userId?: unknown; organizationId?: unknown }
        if (KEY_EVENTS.has(event.type)) {
          touched = true
          const hash = typeof data.keyId === 'string' ? hashById.get(data.keyId) : undefined
          if (hash) evict(hash)
        } else if (event.type === 'user.deleted' && typeof data.userId === 'string') {
          touched = true
          evictOwner(data.userId)
        } else if (event.type === 'organization.deleted' && typeof data.organizationId === 'string') {
          touched = true
          evictOwner(`organization:${data.organizationId}`)
        }
      }
      if (touched) generation += 1
    },
  }
}
