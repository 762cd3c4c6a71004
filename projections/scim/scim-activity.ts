/// Directory sync in the organization's audit feed: each provisioning call and each credential
/// minted or revoked shows to the organization's owners and admins, with the SCIM credential that
/// acted (`by`). Ids, attribute names and group names only: a userName or address is personal data.

import type { Transaction } from 'kysely'
import type { RecordedEvent } from '../../infra/event-store/event-store.js'
import type { Database } from '../database.js'

const SHOWN: Record<string, readonly string[]> = {
  'scim.user-provisioned': ['userId', 'connectionId', 'active'],
  'scim.user-updated': ['userId', 'connectionId', 'attributes'],
  'scim.user-deactivated': ['userId', 'connectionId'],
  'scim.user-reactivated': ['userId', 'connectionId'],
  'scim.user-deprovisioned': ['userId', 'connectionId'],
  'scim.group-created': ['groupId', 'connectionId', 'members', 'displayName'],
  'scim.group-updated': ['groupId', 'connectionId', 'displayName', 'previousDisplayName'],
  'scim.group-members-changed': ['groupId', 'connectionId', 'added', 'removed'],
  'scim.group-deleted': ['groupId', 'connectionId', 'displayName'],
  'scim.credential-issued': ['connectionId', 'credentialId', 'scopes', 'expiresAt'],
  'scim.credential-revoked': ['connectionId', 'credentialId'],
}

const position = (recorded: RecordedEvent): string =>
  `${recorded.position.tx.toString().padStart(20, '0')}:${recorded.position.seq.toString().padStart(10, '0')}`

export const recordDirectoryActivity = async (trx: Transaction<Database>, recorded: RecordedEvent) => {
  const keys = SHOWN[recorded.type]
  const data = recorded.data as Record<string, unknown>
  if (!keys || typeof data.organizationId !== 'string') return
  const { actor } = recorded.metadata
  const details = Object.fromEntries(
    keys.filter((key) => data[key] !== undefined).map((key) => [key, data[key]]),
  )
  if (actor.type === 'scim') details.by = `scim:${actor.connectionId}/${actor.credentialId}`
  await trx
    .insertInto('organization_activity')
    .values({
      id: recorded.id,
      organization_id: data.organizationId,
      type: recorded.type,
      actor_user_id: actor.type === 'user' ? actor.userId : null,
      details: JSON.stringify(details),
      at: new Date(recorded.metadata.at),
      position: position(recorded),
    })
    .execute()
}
