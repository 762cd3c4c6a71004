/// Projects passkey events into `passkeys`. A user's deletion takes their passkeys with it; events
/// of an erased owner are skipped (their rows went with `user.deleted`), as a replay after the
/// erasure would.

import type { PasskeyEvent } from '../../domain/passkey/passkey.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

export const passkeysProjection: Projection = {
  name: 'passkeys',
  tables: ['passkeys'],
  handles: eventTypes('passkey.', 'user.deleted'),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    if (recorded.type === 'user.deleted') {
      const { userId } = recorded.data as { userId: string }
      await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute()
      return
    }
    if (!recorded.type.startsWith('passkey.') || recorded.metadata.erased) return
    const event = recorded as unknown as PasskeyEvent & typeof recorded
    switch (event.type) {
      case 'passkey.registered': {
        const { data } = event
        await trx
          .insertInto('passkeys')
          .values({
            id: data.passkeyId,
            user_id: data.userId,
            name: data.name,
            public_key: data.publicKey,
            credential_id: data.credentialId,
            counter: data.counter,
            device_type: data.deviceType,
            backed_up: data.backedUp,
            transports: data.transports.join(','),
            aaguid: data.aaguid,
            created_at: new Date(data.registeredAt),
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute()
        return
      }
      case 'passkey.renamed':
        await trx
          .updateTable('passkeys')
          .set({ name: event.data.name })
          .where('id', '=', event.data.passkeyId)
          .execute()
        return
      case 'passkey.used':
        await trx
          .updateTable('passkeys')
          .set({ counter: event.data.counter, backed_up: event.data.backedUp })
          .where('id', '=', event.data.passkeyId)
          .execute()
        return
      case 'passkey.deleted':
        await trx.deleteFrom('passkeys').where('id', '=', event.data.passkeyId).execute()
        return
      case 'passkey.clone-suspected':
        return
    }
  },
}
