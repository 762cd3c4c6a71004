/// Projects webhook endpoint events into `webhook_endpoints` (never the secret).

import type { WebhookEvent } from '../../domain/webhook/webhook.events.js'
import { formatPosition } from '../../infra/event-store/event-store.js'
import { NO_EVENT_TYPES, type Projection } from '../projection.js'

export const webhookEndpointsProjection: Projection = {
  name: 'webhook-endpoints',
  tables: ['webhook_endpoints', 'webhook_resends'],
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    if (!recorded.type.startsWith('webhook.')) return
    const event = recorded as unknown as WebhookEvent & typeof recorded
    const rows = trx.updateTable('webhook_endpoints').where('id', '=', event.data.endpointId)
    switch (event.type) {
      case 'webhook.endpoint-created': {
        const { data } = event
        await trx
          .insertInto('webhook_endpoints')
          .values({
            id: data.endpointId,
            url: data.url,
            event_types: JSON.stringify(data.eventTypes),
            organization_id: data.organizationId,
            description: data.description,
            enabled: true,
            created_by: data.createdBy,
            created_at: new Date(data.createdAt),
            start_position: formatPosition(recorded.position),
            replay_after: null,
            replay_generation: 0,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute()
        return
      }
      case 'webhook.endpoint-updated': {
        const { url, eventTypes, enabled } = event.data
        await rows
          .set({
            ...(url !== undefined ? { url } : {}),
            ...(eventTypes !== undefined ? { event_types: JSON.stringify(eventTypes) } : {}),
            ...(enabled !== undefined ? { enabled } : {}),
          })
          .execute()
        return
      }
      case 'webhook.endpoint-disabled':
        await rows.set({ enabled: false }).execute()
        return
      case 'webhook.replay-requested':
        await rows
          .set((eb) => ({
            replay_after: event.data.after,
            replay_generation: eb('replay_generation', '+', 1),
          }))
          .execute()
        return
      case 'webhook.resend-requested':
        await trx
          .insertInto('webhook_resends')
          .values({
            id: recorded.id,
            endpoint_id: event.data.endpointId,
            event_id: event.data.eventId,
            after: event.data.after,
            requested_at: recorded.recordedAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute()
        return
      case 'webhook.endpoint-deleted':
        await trx.deleteFrom('webhook_endpoints').where('id', '=', event.data.endpointId).execute()
        await trx.deleteFrom('webhook_resends').where('endpoint_id', '=', event.data.endpointId).execute()
        return
      case 'webhook.secret-rotated':
        return
    }
  },
}
