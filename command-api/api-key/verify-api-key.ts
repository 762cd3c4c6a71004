/// Verifying an API key for a backend (server API `POST /api-key/verify`), as better-auth's
/// `verifyApiKey` answers: `{ valid, error, key }`, never an HTTP error for a bad key.
///
/// The hot path (docs/architecture.md, "API keys: log and counters"):
/// - the key's settings come from the in-process cache (api-key-cache.ts), or one read by hash;
/// - a key without a usage limit and without a per-key rate limit is answered at once, its use
///   counted in memory and written with the next second's batch (api-key-uses.ts);
/// - a metered or rate-limited key takes its use with one guarded UPDATE of its counters, which
///   also refuses a key disabled or revoked meanwhile on any instance (committed asynchronously).
/// No event per verification: events only when the key's life changes (expired, used up) and, at
/// most once an hour per key, for a summary of its uses.

import { type ApiKeyCommand, apiKeyDecider, apiKeyStream } from '../../domain/api-key/api-key.js'
import { grantsPermissions } from '../../domain/api-key/api-key-rules.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { ApiKeyJson } from '../../http/presenters/api-key-json.js'
import type { CommandContext } from '../context.js'
import { type CachedApiKey, cachedKeyOf } from './api-key-cache.js'
import { hashApiKey } from './api-key-secret.js'
import { closingUses, USAGE_SUMMARY_EVERY_MS } from './api-key-uses.js'

export type VerifyError = { code: string; message: string; details?: { tryAgainIn: number } }
export type VerifyAnswer =
  | { valid: true; error: null; key: ApiKeyJson }
  | { valid: false; error: VerifyError; key: null }

const refused = (code: string, message: string, details?: VerifyError['details']): VerifyAnswer => ({
  valid: false,
  error: details ? { code, message, details } : { code, message },
  key: null,
})

const INVALID = () => refused('INVALID_API_KEY', 'Invalid API key.')
const DISABLED = () => refused('KEY_DISABLED', 'API Key is disabled')
const USAGE_EXCEEDED = () => refused('USAGE_EXCEEDED', 'API Key has reached its usage limit')

type Housekeeping = (command: ApiKeyCommand) => Promise<{ events: readonly { type: string }[] }>

/** The key behind a hash: from the cache when this process may trust it, else from the database. */
const keyFor = async (ctx: CommandContext, keyHash: string): Promise<CachedApiKey | null> => {
  const cache = ctx.apiKeyCache
  const cached = cache?.get(keyHash)
  if (cached) return cached
  const generation = cache?.generation() ?? 0
  const row = await ctx.lookups.apiKeys.verifiableByHash(keyHash)
  if (!row) return null
  const key = cachedKeyOf(row)
  cache?.set(keyHash, key, generation)
  return key
}

export const verifyApiKey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  /** Who the verification's events name: the calling backend, or the key itself (sessions from keys). */
  actorOf: Actor | ((apiKeyId: string) => Actor),
  input: { key: string; permissions?: Record<string, string[]> },
): Promise<VerifyAnswer> => {
  const now = ctx.clock()
  const key = await keyFor(ctx, hashApiKey(input.key))
  if (!key) return INVALID()
  const housekeeping: Housekeeping = (command) => {
    const actor = typeof actorOf === 'function' ? actorOf(key.id) : actorOf
    return ctx.handle(apiKeyDecider, apiKeyStream(key.id), command, {
      metadata: metadataFor(origin, actor, now),
    })
  }
  if (!key.enabled) return DISABLED()
  if (key.expiresAt !== null && key.expiresAt < now.getTime()) {
    await closingUses(ctx, key.id, (unrecorded) =>
      housekeeping({ type: 'expire-api-key', now: now.toISOString(), ...(unrecorded ? { unrecorded } : {}) }),
    )
    return refused('KEY_EXPIRED', 'API Key has expired')
  }
  // A key asked for permissions it lacks answers as better-auth does: as if it were not there.
  if (input.permissions && !grantsPermissions(key.permissions, input.permissions))
    return refused('KEY_NOT_FOUND', 'API Key not found')
  if (!key.metered && !key.rateLimited) {
    // Nothing to decide from the counters: count the use in memory (api-key-uses.ts).
    ctx.apiKeyUses.count(key.id, now)
    return { valid: true, error: null, key: { ...key.json, lastRequest: now.toISOString() } }
  }
  const usage = await ctx.lookups.apiKeys.consumeUse(
    {
      keyId: key.id,
      createdAt: key.createdAt,
      refillAmount: key.refillAmount,
      refillInterval: key.refillInterval,
      rateLimited: key.rateLimited,
    },
    now,
  )
  if (!usage) return whyRefused(ctx, key, now, housekeeping)
  const summary = await ctx.lookups.apiKeys.takeUsageSummary(usage, now, USAGE_SUMMARY_EVERY_MS)
  if (summary)
    await housekeeping({
      type: 'record-api-key-use',
      count: summary.count,
      from: summary.from.toISOString(),
      to: now.toISOString(),
    })
  return {
    valid: true,
    error: null,
    key: {
      ...key.json,
      remaining: usage.remaining,
      lastRefillAt: usage.last_refill_at === null ? null : new Date(usage.last_refill_at).toISOString(),
      requestCount: usage.request_count,
      lastRequest: now.toISOString(),
    },
  }
}

/** The guarded UPDATE took nothing: the counters say why (as the row is now). */
const whyRefused = async (
  ctx: CommandContext,
  key: CachedApiKey,
  now: Date,
  housekeeping: Housekeeping,
): Promise<VerifyAnswer> => {
  const usage = await ctx.lookups.apiKeys.usageOf(key.id)
  // Deleted, expired or its owner gone since it was read (on any instance) reads as unknown.
  if (!usage || usage.revoked_at !== null) return INVALID()
  if (usage.disabled) return DISABLED()
  if (usage.remaining !== null && usage.remaining <= 0) {
    // Used up with no refill to come: better-auth deletes the key as it refuses it.
    if (key.refillAmount === null)
      await closingUses(ctx, key.id, (unrecorded) =>
        housekeeping({ type: 'exhaust-api-key', ...(unrecorded ? { unrecorded } : {}) }),
      )
    return USAGE_EXCEEDED()
  }
  // Another instance may have recorded a request stamped after this one's `now`: the wait is never
  // negative and never longer than the window itself.
  const windowMs = key.rateLimited?.windowMs ?? 0
  const sinceLast = usage.last_request ? now.getTime() - new Date(usage.last_request).getTime() : 0
  return refused('RATE_LIMITED', 'Rate limit exceeded.', {
    tryAgainIn: Math.min(windowMs, Math.max(0, Math.ceil(windowMs - sinceLast))),
  })
}
