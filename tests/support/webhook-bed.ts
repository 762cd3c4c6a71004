/// What most webhook tests start from: before each test a receiver on loopback and a Tessera on the
/// given database that takes the server key and may deliver to loopback; both gone after it.

import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach } from 'vitest'
import type { DatabaseKind } from './databases.js'
import { startTessera, type TestTessera } from './tessera.js'
import { type Receiver, startReceiver } from './webhook-receiver.js'

export type WebhookBed = { tessera: TestTessera; receiver: Receiver }

/** Registers the hooks in the calling `describe`; the bed's fields are set before each test. */
export const useWebhookBed = (kind: DatabaseKind, serverKey: string, features: object = {}): WebhookBed => {
  const bed = {} as WebhookBed
  beforeEach(async () => {
    bed.receiver = await startReceiver()
    bed.tessera = await startTessera({
      kind,
      env: { SERVER_KEYS: `app=${serverKey}` },
      features: { webhooks: { allowAddresses: ['127.0.0.0/8'] }, ...features },
    })
  })
  afterEach(async () => {
    await bed.tessera.cleanup()
    await bed.receiver.close()
  })
  return bed
}

/**
 * How many times an endpoint's attempts were written, and how many attempts: a write's rows share its
 * transaction id (`xmin`), which tells the writes apart from outside.
 */
// biome-ignore lint/suspicious/noExplicitAny: the test reads one table of the read models
export const attemptWritesOf = async (db: Kysely<any>, endpointId: string) => {
  const { rows } = await sql<{ writes: number; attempts: number }>`
    select count(distinct xmin::text)::int as writes, count(*)::int as attempts
      from tessera_webhook_deliveries where endpoint_id = ${endpointId}`.execute(db)
  return rows[0] ?? { writes: 0, attempts: 0 }
}
