/// Reading webhook endpoints (their JSON, as the routes answer it, is in http/presenters/webhook-json.ts).

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { WebhookEndpointRow } from './webhook-endpoints.table.js'

export const eventTypesOf = (row: Pick<WebhookEndpointRow, 'event_types'>): string[] =>
  JSON.parse(row.event_types) as string[]

export const findEndpoint = (db: Kysely<Database>, id: string): Promise<WebhookEndpointRow | undefined> =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()

/** Service-wide endpoints for null, else the organization's only. */
export const listEndpoints = (
  db: Kysely<Database>,
  organizationId: string | null,
): Promise<WebhookEndpointRow[]> =>
  db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', organizationId === null ? 'is' : '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()

export const allEndpoints = (db: Kysely<Database>): Promise<WebhookEndpointRow[]> =>
  db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute()
