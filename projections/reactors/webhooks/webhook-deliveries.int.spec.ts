/// The attempts' and checkpoints' write (webhook-deliveries.table.ts): rows of several endpoints in
/// one statement whose text does not depend on how many rows it carries, each column's values
/// (nulls, times, booleans) landing as given, and a checkpoint moved again by a later write.

import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachDatabase } from '../../../tests/support/databases.js'
import {
  deliveriesStatement,
  saveDeliveries,
  saveManyDeliveries,
  type WebhookDeliveriesTable,
  type WebhookProgressRow,
} from './webhook-deliveries.table.js'

const AT = new Date('2026-11-29T12:00:00.123Z')

const attempt = (id: string, endpoint: string, fields: Partial<WebhookDeliveriesTable> = {}) => ({
  id,
  endpoint_id: endpoint,
  event_id: `event-${id}`,
  event_type: 'user.created',
  attempt: 1,
  ok: true,
  status: 204,
  error: null,
  at: AT,
  latency_ms: 3,
  replay_from: `cursor-${id}`,
  resend_id: null,
  ...fields,
})

const progress = (endpoint: string, fields: Partial<WebhookProgressRow> = {}): WebhookProgressRow => ({
  endpoint_id: endpoint,
  position: '10:1',
  replay_generation: 0,
  failures: 0,
  failing_since: null,
  next_attempt_at: null,
  ...fields,
})

describeEachDatabase('webhook deliveries write', (fresh) => {
  it('has one text for any number of attempts and endpoints', async () => {
    const database = await fresh()
    try {
      const texts = [
        deliveriesStatement([], [progress('e1')]),
        deliveriesStatement([attempt('a1', 'e1')], [progress('e1')]),
        deliveriesStatement(
          [attempt('a1', 'e1'), attempt('a2', 'e1'), attempt('a3', 'e2')],
          [progress('e1'), progress('e2')],
        ),
      ].map((statement) => statement.compile(database.db).sql)
      expect(new Set(texts).size).toBe(1)
    } finally {
      await database.close()
    }
  })

  it("writes every endpoint's attempts with the checkpoint each reached, and moves it on later", async () => {
    const database = await fresh()
    try {
      const { db } = database
      const failedAt = new Date('2026-11-28T08:00:00.000Z')
      const retryAt = new Date('2026-11-29T12:05:00.000Z')
      await saveManyDeliveries(
        db,
        [
          attempt('a1', 'e1'),
          attempt('a2', 'e2', {
            ok: false,
            status: null,
            error: 'no answer within 10000 ms',
            attempt: 3,
            replay_from: null,
            resend_id: 'r1',
          }),
        ],
        [
          progress('e1', { position: '10:2' }),
          progress('e2', {
            position: '10:1',
            failures: 3,
            failing_since: failedAt,
            next_attempt_at: retryAt,
          }),
        ],
      )
      await saveDeliveries(db, [attempt('a3', 'e1', { status: 200 })], progress('e1', { position: '11:1' }))
      await saveManyDeliveries(db, [], [progress('e2', { position: '11:1' })])

      const { rows: attempts } = await sql<WebhookDeliveriesTable>`
        select * from tessera_webhook_deliveries order by id`.execute(db)
      expect(attempts).toEqual([
        attempt('a1', 'e1'),
        attempt('a2', 'e2', {
          ok: false,
          status: null,
          error: 'no answer within 10000 ms',
          attempt: 3,
          replay_from: null,
          resend_id: 'r1',
        }),
        attempt('a3', 'e1', { status: 200 }),
      ])
      const { rows: checkpoints } = await sql<WebhookProgressRow>`
        select * from tessera_webhook_progress order by endpoint_id`.execute(db)
      expect(checkpoints).toEqual([
        progress('e1', { position: '11:1' }),
        progress('e2', { position: '11:1' }),
      ])
    } finally {
      await database.close()
    }
  })
})
