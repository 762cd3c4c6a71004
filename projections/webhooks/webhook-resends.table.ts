/// Read model: resend requests (`webhook_resends`), one row per `webhook.resend-requested`. The
/// reactor sends each once and marks the attempt with the request's id (`resend_id` on
/// `tessera_webhook_deliveries`, an operational table that `tessera replay` keeps), so a rebuilt
/// read model does not send old requests again.

import type { Kysely, Selectable } from 'kysely'

export type WebhookResendsTable = {
  /** The id of the `webhook.resend-requested` event. */
  id: string
  endpoint_id: string
  /** The message: the event sent again, its id the `webhook-id`. */
  event_id: string
  /** `tx:seq` just before the event. */
  after: string
  requested_at: Date
}

export type WebhookResendRow = Selectable<WebhookResendsTable>

export const webhookResendsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('webhook_resends')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('after', 'text', (c) => c.notNull())
      .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('webhook_resends_endpoint')
      .on('webhook_resends')
      .column('endpoint_id')
      .execute()
    await db.schema.alterTable('tessera_webhook_deliveries').addColumn('resend_id', 'text').execute()
    await db.schema
      .createIndex('tessera_webhook_deliveries_resend')
      .on('tessera_webhook_deliveries')
      .column('resend_id')
      .execute()
    await db.schema
      .createIndex('tessera_webhook_deliveries_endpoint_event')
      .on('tessera_webhook_deliveries')
      .columns(['endpoint_id', 'event_id'])
      .execute()
  },
}
