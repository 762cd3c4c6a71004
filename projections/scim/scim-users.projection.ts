/// Projects directory-sync events into `scim_users`. A person goes when their directory deletes
/// them or when their account is deleted (their userName is personal data).

import type { ScimUserEvent } from '../../domain/scim/scim-user.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

const lower = (value: string | null): string | null => (value === null ? null : value.toLowerCase())

export const scimUsersProjection: Projection = {
  name: 'scim-users',
  tables: ['scim_users'],
  handles: eventTypes(
    'scim.user-provisioned',
    'scim.user-updated',
    'scim.user-deactivated',
    'scim.user-reactivated',
    'scim.user-deprovisioned',
    'user.deleted',
  ),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const event = recorded as unknown as (ScimUserEvent | UserEvent) & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'scim.user-provisioned': {
        const { userId, connectionId, organizationId, userName, externalId, active } = event.data
        await trx
          .insertInto('scim_users')
          .values({
            user_id: userId,
            connection_id: connectionId,
            organization_id: organizationId,
            user_name: userName,
            user_name_lower: userName.toLowerCase(),
            external_id: externalId,
            external_id_lower: lower(externalId),
            active,
            created_at: at,
            updated_at: at,
          })
          .execute()
        return
      }
      case 'scim.user-updated': {
        const { userId, userName, externalId } = event.data
        await trx
          .updateTable('scim_users')
          .set({
            user_name: userName,
            user_name_lower: userName.toLowerCase(),
            external_id: externalId,
            external_id_lower: lower(externalId),
            updated_at: at,
          })
          .where('user_id', '=', userId)
          .execute()
        return
      }
      case 'scim.user-deactivated':
      case 'scim.user-reactivated':
        await trx
          .updateTable('scim_users')
          .set({ active: event.type === 'scim.user-reactivated', updated_at: at })
          .where('user_id', '=', event.data.userId)
          .execute()
        return
      case 'scim.user-deprovisioned':
      case 'user.deleted':
        await trx.deleteFrom('scim_users').where('user_id', '=', event.data.userId).execute()
        return
    }
  },
}
