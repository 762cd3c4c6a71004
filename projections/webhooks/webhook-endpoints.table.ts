/// Read model: webhook endpoints (`webhook_endpoints`), one row per live endpoint. No secret: the
/// delivery reactor reads it, sealed, from the endpoint's stream. `start_position` is where the
/// endpoint's deliveries begin (its creation in the log); `replay_after` and `replay_generation`
/// carry a replay request to the reactor (which keeps its own progress, see webhook-progress.table.ts).

import type { Kysely, Selectable } from 'kysely'

export type WebhookEndpointsTable = {
  id: string
  url: string
  /** JSON array of public event types. */
  event_types: string
  organization_id: string | null
  description: string | null
  enabled: boolean
  created_by: string | null
  created_at: Date
  /** `tx:seq` of the creation event. */
  start_position: string
  replay_after: string | null
  replay_generation: number
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>

export const webhookEndpointsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('event_types', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text')
      .addColumn('description', 'text')
      .addColumn('enabled', 'boolean', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('start_position', 'text', (c) => c.notNull())
      .addColumn('replay_after', 'text')
      .addColumn('replay_generation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .createIndex('webhook_endpoints_organization')
      .on('webhook_endpoints')
      .column('organization_id')
      .execute()
  },
}
