/// Reading API keys (with their counters) and the verification's one atomic step on the counters.

import { type Kysely, sql } from 'kysely'
import type { Database } from '../database.js'
import type { ApiKeyRow, ApiKeyUsageRow, ApiKeyUsageTable } from './api-keys.table.js'

type Tables = Database & { tessera_api_key_usage: ApiKeyUsageTable }
const withUsage = (db: Kysely<Database>) => db as unknown as Kysely<Tables>

export type ApiKeyWithUsage = ApiKeyRow & {
  remaining: number | null
  last_refill_at: Date | null
  request_count: number
  last_request: Date | null
}

const selectKeys = (db: Kysely<Database>) =>
  withUsage(db)
    .selectFrom('api_keys')
    .leftJoin('tessera_api_key_usage as usage', 'usage.key_id', 'api_keys.id')
    .selectAll('api_keys')
    .select([
      'usage.remaining',
      'usage.last_refill_at',
      sql<number>`coalesce(usage.request_count, 0)`.as('request_count'),
      'usage.last_request',
    ])

export const findApiKeyById = async (db: Kysely<Database>, id: string): Promise<ApiKeyWithUsage | null> =>
  ((await selectKeys(db).where('api_keys.id', '=', id).executeTakeFirst()) as ApiKeyWithUsage | undefined) ??
  null

export const findApiKeyByHash = async (
  db: Kysely<Database>,
  keyHash: string,
): Promise<ApiKeyWithUsage | null> =>
  ((await selectKeys(db).where('api_keys.key_hash', '=', keyHash).executeTakeFirst()) as
    | ApiKeyWithUsage
    | undefined) ?? null

export type ApiKeyListOptions = {
  limit?: number
  offset?: number
  sortBy?: 'createdAt' | 'updatedAt' | 'name' | 'expiresAt'
  sortDirection?: 'asc' | 'desc'
}

const SORT_COLUMNS = {
  createdAt: 'api_keys.created_at',
  updatedAt: 'api_keys.updated_at',
  name: 'api_keys.name',
  expiresAt: 'api_keys.expires_at',
} as const

export const listApiKeysOfUser = async (
  db: Kysely<Database>,
  userId: string,
  { limit, offset, sortBy = 'createdAt', sortDirection = 'desc' }: ApiKeyListOptions,
): Promise<{ keys: ApiKeyWithUsage[]; total: number }> => {
  let query = selectKeys(db)
    .where('api_keys.user_id', '=', userId)
    .orderBy(SORT_COLUMNS[sortBy], sortDirection)
    .orderBy('api_keys.id')
  if (offset !== undefined) query = query.offset(offset)
  if (limit !== undefined) query = query.limit(limit)
  else if (offset !== undefined) query = query.limit(1_000_000)
  const [keys, count] = await Promise.all([
    query.execute(),
    db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string | number>().as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ])
  return { keys: keys as ApiKeyWithUsage[], total: Number(count.total) }
}

/** The limits a verification is checked against, from the key's read-model row. */
export type UsageLimits = {
  keyId: string
  createdAt: Date
  refillAmount: number | null
  refillInterval: number | null
  rateLimited: { windowMs: number; max: number } | null
}

/**
 * One successful verification, or null when the key has nothing left or is over its rate limit:
 * one guarded UPDATE, so concurrent verifications never take more than there is. A due refill
 * (better-auth: `refillAmount` once `refillInterval` has passed since the last refill or the
 * creation) is applied in the same statement and this use taken from it. The rate-limit window is
 * better-auth's: it restarts when more than `timeWindow` has passed since the last request.
 */
export const consumeUse = async (
  db: Kysely<Database>,
  limits: UsageLimits,
  now: Date,
): Promise<ApiKeyUsageRow | null> => {
  const { keyId, createdAt, refillAmount, refillInterval, rateLimited } = limits
  const nowParam = sql`${now.toISOString()}::timestamptz`
  const refillDue =
    refillAmount !== null && refillInterval !== null
      ? sql`(coalesce(last_refill_at, ${createdAt.toISOString()}::timestamptz) < ${new Date(now.getTime() - refillInterval).toISOString()}::timestamptz)`
      : sql`false`
  const windowStart = rateLimited
    ? sql`${new Date(now.getTime() - rateLimited.windowMs).toISOString()}::timestamptz`
    : sql`null::timestamptz`
  const rateLimitAllows = rateLimited
    ? sql`(last_request is null or last_request <= ${windowStart} or request_count < ${rateLimited.max}::int)`
    : sql`true`
  const requestCount = rateLimited
    ? sql`case when last_request is null or last_request <= ${windowStart} then 1 else request_count + 1 end`
    : sql`request_count`
  const result = await sql<ApiKeyUsageRow>`
    update tessera_api_key_usage set
      remaining = case
        when remaining is null then null
        when ${refillDue} then ${refillAmount ?? 0}::int - 1
        else remaining - 1 end,
      last_refill_at = case when remaining is not null and ${refillDue} then ${nowParam} else last_refill_at end,
      request_count = ${requestCount},
      last_request = ${nowParam},
      unrecorded_uses = unrecorded_uses + 1,
      unrecorded_since = coalesce(unrecorded_since, ${nowParam})
    where key_id = ${keyId}
      and (remaining is null or remaining > 0 or ${refillDue})
      and ${rateLimitAllows}
    returning *`.execute(db)
  return result.rows[0] ?? null
}

/**
 * Takes the uses not yet in the log when the oldest is at least `everyMs` old, for one summary
 * event; null when not due or another verification took them first. Uses counted meanwhile stay.
 */
export const takeUsageSummary = async (
  db: Kysely<Database>,
  usage: ApiKeyUsageRow,
  now: Date,
  everyMs: number,
): Promise<{ count: number; from: Date } | null> => {
  const since = usage.unrecorded_since
  if (since === null || usage.unrecorded_uses === 0 || now.getTime() - since.getTime() < everyMs) return null
  const taken = await withUsage(db)
    .updateTable('tessera_api_key_usage')
    .set((eb) => ({
      unrecorded_uses: eb('unrecorded_uses', '-', usage.unrecorded_uses),
      unrecorded_since: sql`case when unrecorded_uses = ${usage.unrecorded_uses}::int then null else ${now.toISOString()}::timestamptz end`,
    }))
    .where('key_id', '=', usage.key_id)
    .where('unrecorded_since', '=', since)
    .where('unrecorded_uses', '>=', usage.unrecorded_uses)
    .executeTakeFirst()
  return Number(taken.numUpdatedRows) === 1 ? { count: usage.unrecorded_uses, from: since } : null
}
