/// How uses of API keys reach the counters and, in summary, the log.
///
/// - **Buffered uses.** A key without a usage limit and without a per-key rate limit needs no exact
///   count to decide anything: verifying it moves only `lastRequest` and the count of uses not yet
///   summarised. Those are counted here, in memory, and written for all keys at once by one
///   statement a second (`flush`). A crash of this process loses at most that second of counting:
///   `lastRequest` a second behind and up to a second of uses missing from the next summary.
/// - **Summaries.** Once the oldest use not yet in the log is an hour old, the next flush (or
///   metered verification) appends one `api-key.used {count, from, to}` to the key's stream.
/// - **When a key goes** (deleted, expired, used up, its owner deleted), the command that ends it
///   first takes every use not yet in the log, this process's buffer included, and records them in
///   the same append, before the end (`closingUses`).
/// - **Stragglers.** Another instance may still hold uses it answered just before the key went: its
///   next flush adds them to the key's row, which stays (revoked) for `REVOKED_ROW_GRACE_MS`. Then
///   the sweep deletes the row and appends what it still held as a late `api-key.used`.

import { apiKeyDecider, apiKeyStream, type UseSummary } from '../../domain/api-key/api-key.js'
import { type Actor, metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { ApiKeyRecords, BufferedUses } from '../../http/ports/api-key-records.js'
import { newId } from '../../infra/crypto/tokens.js'
import type { CommandContext } from '../context.js'
import type { ApiKeyUses } from './api-key-uses.port.js'

/** How often a key's uses are summarised in the log (at most; the next flush or use after that). */
export const USAGE_SUMMARY_EVERY_MS = 60 * 60 * 1000
/** How often buffered uses are written. */
export const FLUSH_EVERY_MS = 1000
/** How long a revoked key's row waits for other instances' last buffered uses before the sweep. */
export const REVOKED_ROW_GRACE_MS = 2 * 60 * 1000
const SWEEP_EVERY_MS = 60 * 1000
const SWEEP_BATCH = 500

export type { ApiKeyUses } from './api-key-uses.port.js'

/** Housekeeping appends name no request: a fresh correlation id, no address, the system as actor. */
const housekeepingOrigin = (): RequestOrigin => ({ requestId: newId(), ip: null, userAgent: null })
const SYSTEM: Actor = { type: 'system' }

export const createApiKeyUses = (
  context: () => Pick<CommandContext, 'lookups' | 'handle' | 'clock'>,
  onError: (error: unknown, doing: string) => void,
): ApiKeyUses => {
  let buffer = new Map<string, BufferedUses>()
  let flushTimer: NodeJS.Timeout | null = null
  let sweepTimer: NodeJS.Timeout | null = null
  let flushing: Promise<void> = Promise.resolve()

  const recordUses = async (keyId: string, summary: UseSummary) => {
    const ctx = context()
    await ctx.handle(
      apiKeyDecider,
      apiKeyStream(keyId),
      { type: 'record-api-key-use', ...summary },
      { metadata: metadataFor(housekeepingOrigin(), SYSTEM, ctx.clock()) },
    )
  }

  const appendDueSummaries = async (
    rows: Awaited<ReturnType<ApiKeyRecords['addBufferedUses']>>,
  ): Promise<void> => {
    const ctx = context()
    const now = ctx.clock()
    for (const row of rows) {
      const summary = await ctx.lookups.apiKeys.takeUsageSummary(row, now, USAGE_SUMMARY_EVERY_MS)
      if (summary)
        await recordUses(row.key_id, {
          count: summary.count,
          from: summary.from.toISOString(),
          to: now.toISOString(),
        }).catch((error: unknown) => onError(error, `recording the uses of API key ${row.key_id}`))
    }
  }

  /** Uses a failed write could not store go back into the buffer, for the next flush. */
  const keepForLater = (uses: readonly BufferedUses[]) => {
    for (const use of uses) {
      const held = buffer.get(use.keyId)
      if (!held) buffer.set(use.keyId, use)
      else {
        held.count += use.count
        if (use.first < held.first) held.first = use.first
        if (use.last > held.last) held.last = use.last
      }
    }
  }

  const flush = () => {
    // One flush at a time: a slow one must not be overtaken by the next.
    flushing = flushing
      .catch(() => {})
      .then(async () => {
        if (buffer.size === 0) return
        const uses = [...buffer.values()]
        buffer = new Map()
        let rows: Awaited<ReturnType<ApiKeyRecords['addBufferedUses']>>
        try {
          rows = await context().lookups.apiKeys.addBufferedUses(uses)
        } catch (error) {
          keepForLater(uses)
          throw error
        }
        await appendDueSummaries(rows)
      })
    return flushing
  }

  const sweep = async () => {
    const ctx = context()
    const now = ctx.clock()
    const rows = await ctx.lookups.apiKeys.sweepRevokedUsage(
      new Date(now.getTime() - REVOKED_ROW_GRACE_MS),
      SWEEP_BATCH,
    )
    for (const row of rows)
      if (row.unrecorded_uses > 0 && row.unrecorded_since)
        await recordUses(row.key_id, {
          count: row.unrecorded_uses,
          from: new Date(row.unrecorded_since).toISOString(),
          to: new Date(row.last_request ?? now).toISOString(),
        }).catch((error: unknown) => onError(error, `recording the last uses of API key ${row.key_id}`))
  }

  return {
    count(keyId, at) {
      const held = buffer.get(keyId)
      if (held) {
        held.count += 1
        if (at > held.last) held.last = at
      } else buffer.set(keyId, { keyId, count: 1, first: at, last: at })
    },
    flush,
    sweep,
    async flushKey(keyId) {
      // A flush under way may hold this key's uses: let it land first.
      await flushing.catch(() => {})
      const held = buffer.get(keyId)
      if (!held) return
      buffer.delete(keyId)
      await context()
        .lookups.apiKeys.addBufferedUses([held])
        .catch((error: unknown) => {
          keepForLater([held])
          throw error
        })
    },
    start() {
      if (flushTimer) return
      flushTimer = setInterval(() => {
        flush().catch((error: unknown) => onError(error, 'writing buffered API-key uses'))
      }, FLUSH_EVERY_MS)
      sweepTimer = setInterval(() => {
        sweep().catch((error: unknown) => onError(error, 'sweeping revoked API keys'))
      }, SWEEP_EVERY_MS)
      flushTimer.unref()
      sweepTimer.unref()
    },
    async stop() {
      if (flushTimer) clearInterval(flushTimer)
      if (sweepTimer) clearInterval(sweepTimer)
      flushTimer = null
      sweepTimer = null
      await flush().catch((error: unknown) => onError(error, 'writing buffered API-key uses'))
    },
  }
}

/**
 * Ends a key with every use not yet in the log recorded first, in the same append: `end` is given
 * the uses and appends; if it appended no summary (the key was gone, or not the caller's), the uses
 * are put back for whoever records them.
 */
export const closingUses = async (
  ctx: Pick<CommandContext, 'lookups' | 'clock' | 'apiKeyUses'>,
  keyId: string,
  end: (unrecorded: UseSummary | undefined) => Promise<{ events: readonly { type: string }[] }>,
): Promise<void> => {
  await ctx.apiKeyUses.flushKey(keyId)
  const taken = await ctx.lookups.apiKeys.takeUnrecordedUses(keyId)
  const unrecorded = taken
    ? { count: taken.count, from: taken.from.toISOString(), to: ctx.clock().toISOString() }
    : undefined
  let recorded = false
  try {
    const { events } = await end(unrecorded)
    recorded = events.some((event) => event.type === 'api-key.used')
  } finally {
    if (taken && !recorded) await ctx.lookups.apiKeys.giveBackUses(keyId, taken)
  }
}
