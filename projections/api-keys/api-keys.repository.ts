/// Reading API keys (with their counters), and the statements verification moves the counters with:
/// one guarded UPDATE per metered verification, one batched UPDATE a second for the uses of keys
/// without a usage limit or rate limit, and the summaries and sweep that bring uses into the log.
///
/// The counter statements commit asynchronously (`synchronous_commit = off` for their own
/// transaction only, set inside the statement): they stay atomic and are seen at once by every
/// connection, but a crash of the database server may lose the last fraction of a second of
/// counting (PostgreSQL's wal_writer_delay, 200 ms by default, three times over at worst). That is
/// the trade docs/architecture.md describes: the counters are operational state, not the log.

import { type Kysely, type RawBuilder, sql } from 'kysely'
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

/** A key as verification sees it: refused inline (`disabled`) even before the read model shows it. */
export type VerifiableApiKey = ApiKeyWithUsage & { disabled: boolean }

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

/**
 * The key with this hash, unless it was deleted, expired or lost its owner (revoked inline: the
 * read model may still hold its row for the projector's lag).
 */
export const findVerifiableKey = async (
  db: Kysely<Database>,
  keyHash: string,
): Promise<VerifiableApiKey | null> =>
  ((await selectKeys(db)
    .select(sql<boolean>`coalesce(usage.disabled, false)`.as('disabled'))
    .where('api_keys.key_hash', '=', keyHash)
    .where('usage.revoked_at', 'is', null)
    .executeTakeFirst()) as VerifiableApiKey | undefined) ?? null

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

/** A user's own keys, or an organization's. */
export type KeyOwnerFilter = { userId: string } | { organizationId: string }

export const listApiKeys = async (
  db: Kysely<Database>,
  owner: KeyOwnerFilter,
  { limit, offset, sortBy = 'createdAt', sortDirection = 'desc' }: ApiKeyListOptions,
): Promise<{ keys: ApiKeyWithUsage[]; total: number }> => {
  const [column, value] =
    'organizationId' in owner
      ? (['organization_id', owner.organizationId] as const)
      : (['user_id', owner.userId] as const)
  let query = selectKeys(db)
    .where(`api_keys.${column}`, '=', value)
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
      .where(column, '=', value)
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

/** Commits the statement's own transaction asynchronously (see the top of this file). */
const ASYNC_COMMIT = sql`async_commit as (select set_config('synchronous_commit', 'off', true) as setting)`

const ts = (date: Date): RawBuilder<Date> => sql<Date>`${date.toISOString()}::timestamptz`

/**
 * One successful verification, or null when the key has nothing left, is over its rate limit, or
 * was disabled or revoked meanwhile: one guarded UPDATE, so concurrent verifications never take
 * more than there is. A due refill (better-auth: `refillAmount` once `refillInterval` has passed
 * since the last refill or the creation) is applied in the same statement and this use taken from
 * it. The rate-limit window is better-auth's: it restarts when more than `timeWindow` has passed
 * since the last request.
 */
export const consumeUse = async (
  db: Kysely<Database>,
  limits: UsageLimits,
  now: Date,
): Promise<ApiKeyUsageRow | null> => {
  const { keyId, createdAt, refillAmount, refillInterval, rateLimited } = limits
  const nowParam = ts(now)
  const refillDue =
    refillAmount !== null && refillInterval !== null
      ? sql`(coalesce(last_refill_at, ${ts(createdAt)}) < ${ts(new Date(now.getTime() - refillInterval))})`
      : sql`false`
  const windowStart = rateLimited
    ? ts(new Date(now.getTime() - rateLimited.windowMs))
    : sql`null::timestamptz`
  const rateLimitAllows = rateLimited
    ? sql`(last_request is null or last_request <= ${windowStart} or request_count < ${rateLimited.max}::int)`
    : sql`true`
  const requestCount = rateLimited
    ? sql`case when last_request is null or last_request <= ${windowStart} then 1 else request_count + 1 end`
    : sql`request_count`
  const result = await sql<ApiKeyUsageRow>`
    with ${ASYNC_COMMIT}
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
    from async_commit
    where key_id = ${keyId}
      and revoked_at is null and not disabled
      and (remaining is null or remaining > 0 or ${refillDue})
      and ${rateLimitAllows}
    returning tessera_api_key_usage.*`.execute(db)
  return result.rows[0] ?? null
}

/** The usage row as it is now (why a guarded UPDATE took nothing). */
export const findUsage = async (db: Kysely<Database>, keyId: string): Promise<ApiKeyUsageRow | null> =>
  ((await withUsage(db)
    .selectFrom('tessera_api_key_usage')
    .selectAll()
    .where('key_id', '=', keyId)
    .executeTakeFirst()) as ApiKeyUsageRow | undefined) ?? null

/**
 * Takes the uses not yet in the log when the oldest is at least `everyMs` old, for one summary
 * event; null when not due or another verification took them first. Uses counted meanwhile stay.
 */
export const takeUsageSummary = async (
  db: Kysely<Database>,
  usage: Pick<ApiKeyUsageRow, 'key_id' | 'unrecorded_uses' | 'unrecorded_since'>,
  now: Date,
  everyMs: number,
): Promise<{ count: number; from: Date } | null> => {
  const since = usage.unrecorded_since === null ? null : new Date(usage.unrecorded_since)
  if (since === null || usage.unrecorded_uses === 0 || now.getTime() - since.getTime() < everyMs) return null
  const taken = await withUsage(db)
    .updateTable('tessera_api_key_usage')
    .set((eb) => ({
      unrecorded_uses: eb('unrecorded_uses', '-', usage.unrecorded_uses),
      unrecorded_since: sql`case when unrecorded_uses = ${usage.unrecorded_uses}::int then null else ${ts(now)} end`,
    }))
    .where('key_id', '=', usage.key_id)
    .where('unrecorded_since', '=', since)
    .where('unrecorded_uses', '>=', usage.unrecorded_uses)
    .executeTakeFirst()
  return Number(taken.numUpdatedRows) === 1 ? { count: usage.unrecorded_uses, from: since } : null
}

/** Uses of keys verified without touching the database, as one process counted them. */
export type BufferedUses = { keyId: string; count: number; first: Date; last: Date }

/**
 * Adds buffered uses to their keys' rows in one statement (`lastRequest` moves to the latest), and
 * answers each row's uses not yet in the log, to see whose summary is due. A key whose row is gone
 * (swept) is not in the answer.
 */
export const addBufferedUses = async (
  db: Kysely<Database>,
  uses: readonly BufferedUses[],
): Promise<Pick<ApiKeyUsageRow, 'key_id' | 'unrecorded_uses' | 'unrecorded_since'>[]> => {
  if (uses.length === 0) return []
  const rows = JSON.stringify(
    uses.map(({ keyId, count, first, last }) => ({
      key_id: keyId,
      count,
      first: first.toISOString(),
      last: last.toISOString(),
    })),
  )
  const result = await sql<Pick<ApiKeyUsageRow, 'key_id' | 'unrecorded_uses' | 'unrecorded_since'>>`
    with ${ASYNC_COMMIT},
    buffered as (
      select * from json_to_recordset(${rows}::json)
        as v(key_id text, count int, first timestamptz, last timestamptz))
    update tessera_api_key_usage as usage set
      last_request = greatest(usage.last_request, buffered.last),
      unrecorded_uses = usage.unrecorded_uses + buffered.count,
      unrecorded_since = least(coalesce(usage.unrecorded_since, buffered.first), buffered.first)
    from async_commit, buffered
    where usage.key_id = buffered.key_id
    returning usage.key_id, usage.unrecorded_uses, usage.unrecorded_since`.execute(db)
  return result.rows
}

/** Every use of the key not yet in the log, taken at once (its deletion records them); null if none. */
export const takeUnrecordedUses = async (
  db: Kysely<Database>,
  keyId: string,
): Promise<{ count: number; from: Date } | null> => {
  const result = await sql<{ unrecorded_uses: number; unrecorded_since: Date | null }>`
    with old as (
      select key_id, unrecorded_uses, unrecorded_since from tessera_api_key_usage
      where key_id = ${keyId} and unrecorded_uses > 0 for update)
    update tessera_api_key_usage as usage set unrecorded_uses = 0, unrecorded_since = null
    from old where usage.key_id = old.key_id
    returning old.unrecorded_uses, old.unrecorded_since`.execute(db)
  const row = result.rows[0]
  return row?.unrecorded_since ? { count: row.unrecorded_uses, from: new Date(row.unrecorded_since) } : null
}

/** Puts back uses taken for a deletion that did not happen (the key was not there to delete). */
export const giveBackUses = async (
  db: Kysely<Database>,
  keyId: string,
  uses: { count: number; from: Date },
): Promise<void> => {
  await sql`update tessera_api_key_usage set
      unrecorded_uses = unrecorded_uses + ${uses.count}::int,
      unrecorded_since = least(coalesce(unrecorded_since, ${ts(uses.from)}), ${ts(uses.from)})
    where key_id = ${keyId}`.execute(db)
}

/**
 * Removes the usage rows of keys revoked before `before` (one sweep takes at most `limit`), and
 * answers the uses each still held: those other instances counted before they learnt of the end.
 * A row is deleted and answered by one sweeper only (`skip locked`, then `delete … returning`).
 */
export const sweepRevokedUsage = async (
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<
  { key_id: string; unrecorded_uses: number; unrecorded_since: Date | null; last_request: Date | null }[]
> => {
  const result = await sql<{
    key_id: string
    unrecorded_uses: number
    unrecorded_since: Date | null
    last_request: Date | null
  }>`
    delete from tessera_api_key_usage where key_id in (
      select key_id from tessera_api_key_usage
      where revoked_at is not null and revoked_at < ${ts(before)}
      limit ${limit} for update skip locked)
    returning key_id, unrecorded_uses, unrecorded_since, last_request`.execute(db)
  return result.rows
}
