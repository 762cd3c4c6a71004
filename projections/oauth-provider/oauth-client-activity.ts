/// An organization's OAuth clients in its audit feed: who registered, changed, rotated the secret of
/// or deleted each one. The client's id and name, the fields changed; never a secret or its hash.

import type { Transaction } from 'kysely'
import type { OAuthClientEvent } from '../../domain/oauth-provider/oauth-client.js'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'

const detailsOf = (event: OAuthClientEvent): Record<string, unknown> => {
  switch (event.type) {
    case 'oauth-client.registered':
      return { clientId: event.data.clientId, name: event.data.settings.name }
    case 'oauth-client.updated':
      return { clientId: event.data.clientId, fields: Object.keys(event.data.changes).sort() }
    default:
      return { clientId: event.data.clientId }
  }
}

export const recordClientActivity = async (trx: Transaction<Database>, recorded: RecordedEvent) => {
  const event = recorded as unknown as OAuthClientEvent
  const organizationId = event.data.organizationId
  if (typeof organizationId !== 'string') return
  const { actor } = recorded.metadata
  const { tx, seq } = recorded.position
  await trx
    .insertInto('organization_activity')
    .values({
      id: recorded.id,
      organization_id: organizationId,
      type: recorded.type,
      actor_user_id: actor.type === 'user' ? actor.userId : null,
      details: JSON.stringify(detailsOf(event)),
      at: new Date(recorded.metadata.at),
      position: `${tx.toString().padStart(20, '0')}:${seq.toString().padStart(10, '0')}`,
    })
    .execute()
}
