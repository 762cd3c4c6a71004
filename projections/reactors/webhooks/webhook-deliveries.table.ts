/// Operational tables of the webhook reactor (not read models: `tessera replay` leaves them alone).
/// - `tessera_webhook_deliveries`: every attempt (event, status or error, time, latency), kept 30
///   days; the answer's body is never stored.
/// - `tessera_webhook_progress`: each endpoint's checkpoint in the log, the replay request it last
///   followed, and the retry state of the event it is stuck on, so a restart resumes the schedule.

import { type Kysely, type Selectable, sql } from 'kysely'
import type { Database } from '../../database.js'
import type { WebhookEndpointRow } from '../../webhooks/webhook-endpoints.table.js'

export type WebhookDeliveriesTable = {
  id: string
  endpoint_id: string
  event_id: string
  event_type: string
  attempt: number
  ok: boolean
  status: number | null
  error: string | null
  at: Date
  latency_ms: number
  /** The feed cursor just before the event: `webhook/replay` from it sends this event again first. */
  replay_from: string | null
  /** The resend request this attempt answered (webhook-resends.table.ts); null for the log's own. */
  resend_id: string | null
}

export type WebhookProgressTable = {
  endpoint_id: string
  /** `tx:seq`: every event up to here is delivered or not for this endpoint. */
  position: string
  replay_generation: number
  /** Failed attempts at the next event, and when the first of them failed. */
  failures: number
  failing_since: Date | null
  next_attempt_at: Date | null
}

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>
export type WebhookProgressRow = Selectable<WebhookProgressTable>

export type WebhookTables = {
  tessera_webhook_deliveries: WebhookDeliveriesTable
  tessera_webhook_progress: WebhookProgressTable
}

export const withWebhookTables = (db: Kysely<Database>): Kysely<Database & WebhookTables> =>
  db.withTables<WebhookTables>()

export const webhookDeliveriesMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tessera_webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('ok', 'boolean', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('error', 'text')
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('tessera_webhook_deliveries_endpoint_at')
      .on('tessera_webhook_deliveries')
      .columns(['endpoint_id', 'at'])
      .execute()
    await db.schema
      .createTable('tessera_webhook_progress')
      .addColumn('endpoint_id', 'text', (c) => c.primaryKey())
      .addColumn('position', 'text', (c) => c.notNull())
      .addColumn('replay_generation', 'integer', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failing_since', 'timestamptz')
      .addColumn('next_attempt_at', 'timestamptz')
      .execute()
  },
}

/** Attempts remember where their event sits in the log, so the portal can replay from one. */
export const webhookDeliveryReplayFromMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('tessera_webhook_deliveries').addColumn('replay_from', 'text').execute()
  },
}

/**
 * The attempts' indexes as their reads use them (issue 34: a sign-up with 8 endpoints writes 16
 * attempt rows, and every index costs each row a descent to a leaf it then dirties):
 * - the primary key on `id` goes: no statement finds, updates or conflicts on an attempt by its id
 *   (a random UUID made with the attempt; the deliveries list shows it and breaks ties on it after
 *   `at`, which `tessera_webhook_deliveries_endpoint_at` finds), and its unique index put each new
 *   row on a random leaf;
 * - `resend_id` is indexed only where it is set: the resends' look-up (endpoint-resends.ts) asks for
 *   one request's attempt, and the log's own deliveries, nearly every row, leave it null.
 * Kept: `(endpoint_id, at)` for the deliveries list, `(endpoint_id, event_id)` for a resend's message
 * (`findMessageCursor`). The 30-day sweep deletes by `at` alone, once an hour, and scans.
 */
export const webhookDeliveryIndexesMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await sql`alter table tessera_webhook_deliveries drop constraint tessera_webhook_deliveries_pkey`.execute(
      db,
    )
    await db.schema.dropIndex('tessera_webhook_deliveries_resend').execute()
    await db.schema
      .createIndex('tessera_webhook_deliveries_resend')
      .on('tessera_webhook_deliveries')
      .column('resend_id')
      .where('resend_id', 'is not', null)
      .execute()
  },
}

export const RETENTION_MS = 30 * 24 * 3600 * 1000

export const recordAttempt = async (db: Kysely<Database>, row: WebhookDeliveriesTable): Promise<void> => {
  await withWebhookTables(db).insertInto('tessera_webhook_deliveries').values(row).execute()
}

export const listDeliveries = (
  db: Kysely<Database>,
  endpointId: string,
  limit: number,
): Promise<WebhookDeliveryRow[]> =>
  withWebhookTables(db)
    .selectFrom('tessera_webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()

/** Attempts older than 30 days go. */
export const purgeOldAttempts = async (db: Kysely<Database>, now: Date): Promise<void> => {
  await withWebhookTables(db)
    .deleteFrom('tessera_webhook_deliveries')
    .where('at', '<', new Date(now.getTime() - RETENTION_MS))
    .execute()
}

/** An endpoint as its run starts: its row, and its checkpoint if it has one. */
export type EndpointStart = { endpoint: WebhookEndpointRow; progress: WebhookProgressRow | undefined }

/**
 * Endpoints with their checkpoints, in one statement for any number of them (the runs one commit
 * starts read theirs together: gathered-calls.ts). Its text is the same for any count (`any`).
 */
export const readEndpointStarts = async (
  db: Kysely<Database>,
  endpointIds: readonly string[],
): Promise<Map<string, EndpointStart>> => {
  const rows = await withWebhookTables(db)
    .selectFrom('webhook_endpoints as e')
    .leftJoin('tessera_webhook_progress as p', 'p.endpoint_id', 'e.id')
    .selectAll('e')
    .select([
      'p.endpoint_id as progress_of',
      'p.position as progress_position',
      'p.replay_generation as progress_replay_generation',
      'p.failures as progress_failures',
      'p.failing_since as progress_failing_since',
      'p.next_attempt_at as progress_next_attempt_at',
    ])
    .where(sql<boolean>`e.id = any(${endpointIds}::text[])`)
    .execute()
  return new Map(
    rows.map(({ progress_of, progress_position, progress_replay_generation, progress_failures, ...rest }) => {
      const { progress_failing_since, progress_next_attempt_at, ...endpoint } = rest
      const progress =
        progress_of === null
          ? undefined
          : {
              endpoint_id: progress_of,
              position: progress_position as string,
              replay_generation: progress_replay_generation as number,
              failures: progress_failures as number,
              failing_since: progress_failing_since,
              next_attempt_at: progress_next_attempt_at,
            }
      return [endpoint.id, { endpoint, progress }]
    }),
  )
}

/** What a checkpoint's upsert overwrites: every column but the endpoint it belongs to. */
const progressColumns = ({ endpoint_id: _endpoint, ...columns }: WebhookProgressRow) => columns

export const saveProgress = async (db: Kysely<Database>, row: WebhookProgressRow): Promise<void> => {
  await withWebhookTables(db)
    .insertInto('tessera_webhook_progress')
    .values(row)
    .onConflict((oc) => oc.column('endpoint_id').doUpdateSet(progressColumns(row)))
    .execute()
}

/**
 * Attempts and the checkpoint they moved, in one statement (one round trip, one transaction): the
 * worker writes them after a page of deliveries rather than two writes per delivery. A crash before
 * it loses the attempts' rows and sends their events again (at-least-once), never skips one.
 */
export const saveDeliveries = (
  db: Kysely<Database>,
  attempts: readonly WebhookDeliveriesTable[],
  progress: WebhookProgressRow,
): Promise<void> => saveManyDeliveries(db, attempts, [progress])

const column = <Row, Key extends keyof Row>(rows: readonly Row[], key: Key): Row[Key][] =>
  rows.map((row) => row[key])

/**
 * The attempts and checkpoints of several endpoints in one statement (delivery-writes.ts gathers
 * them): one transaction, so each endpoint's attempts still land with the checkpoint they reached.
 * One checkpoint per endpoint.
 *
 * The rows go as one array per column (`unnest`), so the statement's text is the same however many
 * rows it carries: it is prepared once per connection (infra/db/pg-prepared.ts) and planned once,
 * where a `values` list made a new text, parse and plan for every count of attempts and endpoints,
 * and spent the pool's named-statement budget on them. Building and sending it also costs the event
 * loop a dozen arrays rather than a dozen parameters per attempt (issue 34).
 */
export const saveManyDeliveries = async (
  db: Kysely<Database>,
  attempts: readonly WebhookDeliveriesTable[],
  progress: readonly WebhookProgressRow[],
): Promise<void> => {
  if (progress.length > 0) await deliveriesStatement(attempts, progress).execute(db)
}

/** saveManyDeliveries' statement, its text the same for any number of rows. */
export const deliveriesStatement = (
  attempts: readonly WebhookDeliveriesTable[],
  progress: readonly WebhookProgressRow[],
) => sql`
    with attempts as (
      insert into tessera_webhook_deliveries
        (id, endpoint_id, event_id, event_type, attempt, ok, status, error, at, latency_ms, replay_from, resend_id)
      select id, endpoint_id, event_id, event_type, attempt, ok, status, error, at, latency_ms, replay_from, resend_id
        from unnest(
          ${column(attempts, 'id')}::text[], ${column(attempts, 'endpoint_id')}::text[],
          ${column(attempts, 'event_id')}::text[], ${column(attempts, 'event_type')}::text[],
          ${column(attempts, 'attempt')}::integer[], ${column(attempts, 'ok')}::boolean[],
          ${column(attempts, 'status')}::integer[], ${column(attempts, 'error')}::text[],
          ${column(attempts, 'at')}::timestamptz[], ${column(attempts, 'latency_ms')}::integer[],
          ${column(attempts, 'replay_from')}::text[], ${column(attempts, 'resend_id')}::text[]
        ) as made (id, endpoint_id, event_id, event_type, attempt, ok, status, error, at, latency_ms,
                   replay_from, resend_id)
    )
    insert into tessera_webhook_progress
      (endpoint_id, position, replay_generation, failures, failing_since, next_attempt_at)
    select endpoint_id, position, replay_generation, failures, failing_since, next_attempt_at
      from unnest(
        ${column(progress, 'endpoint_id')}::text[], ${column(progress, 'position')}::text[],
        ${column(progress, 'replay_generation')}::integer[], ${column(progress, 'failures')}::integer[],
        ${column(progress, 'failing_since')}::timestamptz[], ${column(progress, 'next_attempt_at')}::timestamptz[]
      ) as reached (endpoint_id, position, replay_generation, failures, failing_since, next_attempt_at)
    on conflict (endpoint_id) do update set
      position = excluded.position, replay_generation = excluded.replay_generation,
      failures = excluded.failures, failing_since = excluded.failing_since,
      next_attempt_at = excluded.next_attempt_at`

export const forgetProgress = async (db: Kysely<Database>, endpointId: string): Promise<void> => {
  await withWebhookTables(db)
    .deleteFrom('tessera_webhook_progress')
    .where('endpoint_id', '=', endpointId)
    .execute()
}

/** Where a message this endpoint was sent sits in the log (its feed cursor), or null: never sent. */
export const findMessageCursor = async (
  db: Kysely<Database>,
  endpointId: string,
  eventId: string,
): Promise<string | null> => {
  const row = await withWebhookTables(db)
    .selectFrom('tessera_webhook_deliveries')
    .select('replay_from')
    .where('endpoint_id', '=', endpointId)
    .where('event_id', '=', eventId)
    .where('replay_from', 'is not', null)
    .limit(1)
    .executeTakeFirst()
  return row?.replay_from ?? null
}
