/// What the webhook use cases read of the endpoints read model and of the deliveries table, as a
/// port on the command context (`CommandContext.lookups.webhooks`), bound to the database in the
/// composition root (app/server/command-lookups.ts).

import type { findMessageCursor } from '../../projections/reactors/webhooks/webhook-deliveries.table.js'
import type { findEndpoint } from '../../projections/webhooks/webhook-endpoints.repository.js'
import type { WebhookEndpointRow } from '../../projections/webhooks/webhook-endpoints.table.js'
import type { Bound } from './bound.js'

export type { WebhookEndpointRow }

export type WebhookLookup = {
  findEndpoint: Bound<typeof findEndpoint>
  /** The replay cursor recorded with an event's delivery to the endpoint, null when none was. */
  findMessageCursor: Bound<typeof findMessageCursor>
}
