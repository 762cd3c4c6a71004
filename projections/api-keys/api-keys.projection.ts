/// Projects the API-key events into `api_keys`, and starts (or resets `remaining` of) each key's
/// operational counters in `tessera_api_key_usage` (see api-keys.table.ts for why a replay keeps them).
/// A user's deletion takes their keys with it, an organization's deletion its keys. The usage row
/// of a key that goes stays: it was marked revoked inline as the event committed, and the sweep
/// deletes it once the uses other instances still held are in the log (command-api/api-key).

import type { Transaction } from 'kysely'
import type { ApiKeyEvent } from '../../domain/api-key/api-key.js'
import type { Database } from '../database.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'
import { insertRow } from '../runner/bound-statements.js'
import { recordApiKeyRevocations } from './api-key-revocations.js'
import type { ApiKeyUsageTable } from './api-keys.table.js'

type Tables = Database & { tessera_api_key_usage: ApiKeyUsageTable }

const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value)

export const apiKeysProjection: Projection = {
  name: 'api-keys',
  // The usage table is operational: a replay must not empty it (its counters are not in the log).
  tables: ['api_keys'],
  handles: eventTypes('api-key.', 'user.deleted', 'organization.deleted'),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(untyped, recorded) {
    const trx = untyped as unknown as Transaction<Tables>
    const at = new Date(recorded.metadata.at)
    // Live, the append already wrote these inline; a replay (which runs no inline hook) needs them so
    // the usage rows of keys that went are marked revoked, and swept, instead of left behind.
    await recordApiKeyRevocations(trx, [recorded])
    if (recorded.type === 'user.deleted') {
      const { userId } = recorded.data as { userId: string }
      await trx.deleteFrom('api_keys').where('user_id', '=', userId).execute()
      return
    }
    if (recorded.type === 'organization.deleted') {
      const { organizationId } = recorded.data as { organizationId: string }
      await trx.deleteFrom('api_keys').where('organization_id', '=', organizationId).execute()
      return
    }
    const event = recorded as unknown as ApiKeyEvent & typeof recorded
    switch (event.type) {
      case 'api-key.created': {
        const data = event.data
        await insertRow(
          trx,
          'api_keys',
          {
            id: data.keyId,
            user_id: data.userId,
            organization_id: data.organizationId ?? null,
            name: data.name,
            prefix: data.prefix,
            start: data.start,
            last_four: data.lastFour ?? null,
            key_hash: data.keyHash,
            enabled: true,
            expires_at: data.expiresAt === null ? null : new Date(data.expiresAt),
            refill_amount: data.refillAmount,
            refill_interval: data.refillInterval,
            rate_limit_enabled: data.rateLimitEnabled,
            rate_limit_time_window: data.rateLimitTimeWindow,
            rate_limit_max: data.rateLimitMax,
            permissions: json(data.permissions),
            metadata: json(data.metadata),
            created_at: new Date(data.createdAt),
            updated_at: new Date(data.createdAt),
          },
          'id',
        )
        await insertRow<Tables, 'tessera_api_key_usage'>(
          trx,
          'tessera_api_key_usage',
          { key_id: data.keyId, remaining: data.remaining, remaining_version: event.streamVersion },
          'key_id',
        )
        return
      }
      case 'api-key.updated': {
        const { keyId, changes } = event.data
        await trx
          .updateTable('api_keys')
          .set({
            ...(changes.name !== undefined ? { name: changes.name } : {}),
            ...(changes.expiresAt !== undefined
              ? { expires_at: changes.expiresAt === null ? null : new Date(changes.expiresAt) }
              : {}),
            ...(changes.refillAmount !== undefined ? { refill_amount: changes.refillAmount } : {}),
            ...(changes.refillInterval !== undefined ? { refill_interval: changes.refillInterval } : {}),
            ...(changes.rateLimitEnabled !== undefined
              ? { rate_limit_enabled: changes.rateLimitEnabled }
              : {}),
            ...(changes.rateLimitTimeWindow !== undefined
              ? { rate_limit_time_window: changes.rateLimitTimeWindow }
              : {}),
            ...(changes.rateLimitMax !== undefined ? { rate_limit_max: changes.rateLimitMax } : {}),
            ...(changes.permissions !== undefined ? { permissions: json(changes.permissions) } : {}),
            ...(changes.metadata !== undefined ? { metadata: json(changes.metadata) } : {}),
            updated_at: at,
          })
          .where('id', '=', keyId)
          .execute()
        if (changes.remaining !== undefined)
          await trx
            .updateTable('tessera_api_key_usage')
            .set({ remaining: changes.remaining, remaining_version: event.streamVersion })
            .where('key_id', '=', keyId)
            .where('remaining_version', '<', event.streamVersion)
            .execute()
        return
      }
      case 'api-key.enabled':
      case 'api-key.disabled':
        await trx
          .updateTable('api_keys')
          .set({ enabled: event.type === 'api-key.enabled', updated_at: at })
          .where('id', '=', event.data.keyId)
          .execute()
        return
      case 'api-key.deleted':
      case 'api-key.expired':
        await trx.deleteFrom('api_keys').where('id', '=', event.data.keyId).execute()
        return
      case 'api-key.used':
        return
    }
  },
}
