/// Verifying an API key for a backend (server API `POST /api-key/verify`), as better-auth's
/// `verifyApiKey` answers: `{ valid, error, key }`, never an HTTP error for a bad key.
///
/// The hot path reads the key's row by hash and takes one use with one guarded UPDATE of its
/// counters (projections/api-keys/api-keys.repository.ts, `consumeUse`): no event per verification.
/// Events are appended only when the key's life changes (expired, used up) and, at most once an
/// hour per key, for a summary of its uses (`api-key.used`, see docs/architecture.md).

import { apiKeyDecider, apiKeyStream } from '../../domain/api-key/api-key.js'
import { grantsPermissions } from '../../domain/api-key/api-key-rules.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import {
  type ApiKeyWithUsage,
  consumeUse,
  findApiKeyByHash,
  takeUsageSummary,
} from '../../projections/api-keys/api-keys.repository.js'
import { type ApiKeyJson, apiKeyJson } from '../../query-api/api-key/api-key-json.js'
import type { CommandContext } from '../context.js'
import { hashApiKey } from './api-key-secret.js'

/** How often a key's uses are summarised in the log (at most; the next use after that writes it). */
export const USAGE_SUMMARY_EVERY_MS = 60 * 60 * 1000

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
const USAGE_EXCEEDED = () => refused('USAGE_EXCEEDED', 'API Key has reached its usage limit')

export const verifyApiKey = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  /** Who the verification's events name: the calling backend, or the key itself (sessions from keys). */
  actorOf: Actor | ((apiKeyId: string) => Actor),
  input: { key: string; permissions?: Record<string, string[]> },
): Promise<VerifyAnswer> => {
  const now = ctx.clock()
  const row = await findApiKeyByHash(ctx.db, hashApiKey(input.key))
  if (!row) return INVALID()
  const actor = typeof actorOf === 'function' ? actorOf(row.id) : actorOf
  const housekeeping = (command: Parameters<typeof apiKeyDecider.decide>[0]) =>
    ctx.handle(apiKeyDecider, apiKeyStream(row.id), command, { metadata: metadataFor(origin, actor, now) })
  if (!row.enabled) return refused('KEY_DISABLED', 'API Key is disabled')
  if (row.expires_at !== null && new Date(row.expires_at).getTime() < now.getTime()) {
    await housekeeping({ type: 'expire-api-key', now: now.toISOString() })
    return refused('KEY_EXPIRED', 'API Key has expired')
  }
  // A key asked for permissions it lacks answers as better-auth does: as if it were not there.
  if (input.permissions && !grantsPermissions(parsePermissions(row), input.permissions))
    return refused('KEY_NOT_FOUND', 'API Key not found')
  if (row.remaining === 0 && row.refill_amount === null) {
    await housekeeping({ type: 'exhaust-api-key' })
    return USAGE_EXCEEDED()
  }
  const rateLimited = rateLimitOf(row)
  const usage = await consumeUse(
    ctx.db,
    {
      keyId: row.id,
      createdAt: new Date(row.created_at),
      refillAmount: row.refill_amount,
      refillInterval: row.refill_interval,
      rateLimited,
    },
    now,
  )
  if (!usage) {
    // Gone between the read and the update (deleted, expired) reads as unknown.
    const fresh = await findApiKeyByHash(ctx.db, row.key_hash)
    if (!fresh) return INVALID()
    if (fresh.remaining !== null && fresh.remaining <= 0) return USAGE_EXCEEDED()
    const sinceLast = fresh.last_request ? now.getTime() - new Date(fresh.last_request).getTime() : 0
    return refused('RATE_LIMITED', 'Rate limit exceeded.', {
      tryAgainIn: Math.max(0, Math.ceil((rateLimited?.windowMs ?? 0) - sinceLast)),
    })
  }
  const summary = await takeUsageSummary(ctx.db, usage, now, USAGE_SUMMARY_EVERY_MS)
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
    key: apiKeyJson({
      ...row,
      remaining: usage.remaining,
      last_refill_at: usage.last_refill_at,
      request_count: usage.request_count,
      last_request: usage.last_request,
    }),
  }
}

const parsePermissions = (row: ApiKeyWithUsage): Record<string, string[]> | null =>
  row.permissions === null ? null : (JSON.parse(row.permissions) as Record<string, string[]>)

const rateLimitOf = (row: ApiKeyWithUsage) =>
  row.rate_limit_enabled && row.rate_limit_time_window !== null && row.rate_limit_max !== null
    ? { windowMs: row.rate_limit_time_window, max: row.rate_limit_max }
    : null
