/// Projects directory groups into `scim_groups` and `scim_group_members`. A person leaves every
/// group when their directory deletes them or their account is deleted.

import type { Transaction } from 'kysely'
import type { ScimGroupEvent } from '../../domain/scim/scim-group.js'
import type { ScimUserEvent } from '../../domain/scim/scim-user.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import type { Database } from '../database.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

const lower = (value: string | null): string | null => (value === null ? null : value.toLowerCase())

const addMembers = async (trx: Transaction<Database>, groupId: string, userIds: string[], at: Date) => {
  if (userIds.length === 0) return
  await trx
    .insertInto('scim_group_members')
    .values(userIds.map((userId) => ({ group_id: groupId, user_id: userId, created_at: at })))
    .onConflict((c) => c.columns(['group_id', 'user_id']).doNothing())
    .execute()
}

export const scimGroupsProjection: Projection = {
  name: 'scim-groups',
  tables: ['scim_groups', 'scim_group_members'],
  handles: eventTypes(
    'scim.group-created',
    'scim.group-updated',
    'scim.group-members-changed',
    'scim.group-deleted',
    'scim.user-deprovisioned',
    'user.deleted',
  ),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const event = recorded as unknown as (ScimGroupEvent | ScimUserEvent | UserEvent) & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'scim.group-created': {
        const { groupId, connectionId, organizationId, displayName, externalId, members } = event.data
        await trx
          .insertInto('scim_groups')
          .values({
            group_id: groupId,
            connection_id: connectionId,
            organization_id: organizationId,
            display_name: displayName,
            display_name_lower: displayName.toLowerCase(),
            external_id: externalId,
            external_id_lower: lower(externalId),
            created_at: at,
            updated_at: at,
          })
          .execute()
        await addMembers(trx, groupId, members, at)
        return
      }
      case 'scim.group-updated': {
        const { groupId, displayName, externalId } = event.data
        await trx
          .updateTable('scim_groups')
          .set({
            display_name: displayName,
            display_name_lower: displayName.toLowerCase(),
            external_id: externalId,
            external_id_lower: lower(externalId),
            updated_at: at,
          })
          .where('group_id', '=', groupId)
          .execute()
        return
      }
      case 'scim.group-members-changed': {
        const { groupId, added, removed } = event.data
        await addMembers(trx, groupId, added, at)
        if (removed.length > 0)
          await trx
            .deleteFrom('scim_group_members')
            .where('group_id', '=', groupId)
            .where('user_id', 'in', removed)
            .execute()
        await trx.updateTable('scim_groups').set({ updated_at: at }).where('group_id', '=', groupId).execute()
        return
      }
      case 'scim.group-deleted':
        await trx.deleteFrom('scim_group_members').where('group_id', '=', event.data.groupId).execute()
        await trx.deleteFrom('scim_groups').where('group_id', '=', event.data.groupId).execute()
        return
      case 'scim.user-deprovisioned':
      case 'user.deleted':
        await trx.deleteFrom('scim_group_members').where('user_id', '=', event.data.userId).execute()
        return
    }
  },
}
