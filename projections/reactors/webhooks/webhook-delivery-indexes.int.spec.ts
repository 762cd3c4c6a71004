/// The migration that trims the delivery attempts' indexes (webhook-deliveries.table.ts) on a table
/// the previous version filled: the attempts stay, the primary key on `id` goes, `resend_id` is
/// indexed only where it is set, and each read of the table still finds its rows through an index.

import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { databaseBefore, toLatest } from '../../../tests/support/migration-steps.js'
import { pendingResendsQuery } from './endpoint-resends.js'

const MIGRATION = '2026-11-29T16:30:00Z_webhook-delivery-indexes'

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema
let db: Kysely<any>
beforeEach(async () => {
  db = await databaseBefore(MIGRATION)
})
afterEach(() => db.destroy())

it('keeps the attempts, drops the primary key and indexes resend_id only where it is set', async () => {
  await sql`
    insert into tessera_webhook_deliveries
      (id, endpoint_id, event_id, event_type, attempt, ok, status, error, at, latency_ms, replay_from, resend_id)
    values ('a1', 'e1', 'ev1', 'user.created', 1, true, 204, null, now(), 3, 'c0', null),
           ('a2', 'e1', 'ev1', 'user.created', 1, true, 204, null, now(), 3, 'c0', 'r1')`.execute(db)

  await toLatest(db)

  const { rows: kept } = await sql<{ id: string }>`
    select id from tessera_webhook_deliveries order by id`.execute(db)
  expect(kept.map((row) => row.id)).toEqual(['a1', 'a2'])
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes
    where tablename = 'tessera_webhook_deliveries' order by indexname`.execute(db)
  expect(indexes.map((index) => index.name)).toEqual([
    'tessera_webhook_deliveries_endpoint_at',
    'tessera_webhook_deliveries_endpoint_event',
    'tessera_webhook_deliveries_resend',
  ])
  expect(indexes[2]?.definition).toMatch(/\(resend_id\) WHERE \(resend_id IS NOT NULL\)$/)

  // The resends' look-up still finds a request's attempt through the partial index.
  await sql`set enable_seqscan = off`.execute(db)
  const plan = await pendingResendsQuery(db, 'e1', new Date(0)).explain()
  expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
    /Index Only Scan using tessera_webhook_deliveries_resend/,
  )
})
