/// What stops a key verifying is written INLINE, in the transaction of the event that says so, as
/// `tessera_pending_revocations` is for sessions (docs/architecture.md, "Consistency"): disabling
/// sets `disabled` on the key's usage row, enabling clears it; a deletion, an expiry and the owner's
/// deletion (a user, or an organization) set `revoked_at`. Verification reads both from the row it
/// looks the key up with, and its counting UPDATE is guarded by them, so the key is refused on
/// every instance the moment the event commits, however far the projector lags.
///
/// Within a key's stream, appends are serialised, so a disable and an enable commit in their order.
/// Only ids are read, so this works on the sealed events the SQL store writes.

import { sql, type Transaction } from 'kysely'
import type { EventToAppend } from '../../infra/event-store/event-store.js'

// biome-ignore lint/suspicious/noExplicitAny: the store's hook serves any schema that has the table
type AnyTransaction = Transaction<any>

type Appended = Pick<EventToAppend, 'type' | 'data' | 'metadata'>

const idIn = (data: object, field: string): string | null => {
  const value = (data as Record<string, unknown>)[field]
  return typeof value === 'string' ? value : null
}

/** The event types the hook below writes for; any other it passes over. */
const WRITES_FOR: ReadonlySet<string> = new Set([
  'api-key.disabled',
  'api-key.enabled',
  'api-key.deleted',
  'api-key.expired',
  'user.deleted',
  'organization.deleted',
])

/** Whether `recordApiKeyRevocations` has anything to write for an event of this type. */
export const changesApiKeyUsage = (type: string): boolean => WRITES_FOR.has(type)

/** The event store's inline hook for API keys (composed in app/server/tessera.ts). */
export const recordApiKeyRevocations = async (
  trx: AnyTransaction,
  events: readonly Appended[],
): Promise<void> => {
  for (const event of events) {
    if (!changesApiKeyUsage(event.type)) continue
    const at = new Date(event.metadata.at)
    switch (event.type) {
      case 'api-key.disabled':
      case 'api-key.enabled': {
        const keyId = idIn(event.data, 'keyId')
        if (keyId)
          await sql`update tessera_api_key_usage set disabled = ${event.type === 'api-key.disabled'}
            where key_id = ${keyId}`.execute(trx)
        break
      }
      case 'api-key.deleted':
      case 'api-key.expired': {
        const keyId = idIn(event.data, 'keyId')
        if (keyId)
          await sql`update tessera_api_key_usage set revoked_at = coalesce(revoked_at, ${at})
            where key_id = ${keyId}`.execute(trx)
        break
      }
      case 'user.deleted': {
        const userId = idIn(event.data, 'userId')
        if (userId) await revokeKeysOwnedBy(trx, 'user_id', userId, at)
        break
      }
      case 'organization.deleted': {
        const organizationId = idIn(event.data, 'organizationId')
        if (organizationId) await revokeKeysOwnedBy(trx, 'organization_id', organizationId, at)
        break
      }
    }
  }
}

const revokeKeysOwnedBy = (
  trx: AnyTransaction,
  column: 'user_id' | 'organization_id',
  id: string,
  at: Date,
) =>
  sql`update tessera_api_key_usage set revoked_at = coalesce(revoked_at, ${at})
    where key_id in (select id from api_keys where ${sql.ref(column)} = ${id})`.execute(trx)
