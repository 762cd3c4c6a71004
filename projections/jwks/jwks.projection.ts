/// Projects the signing-key events into `jwks`.

import type { SigningKeyEvent } from '../../domain/signing-key/signing-key.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

export const jwksProjection: Projection = {
  name: 'jwks',
  tables: ['jwks'],
  handles: eventTypes('signing-key.'),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const event = recorded as unknown as SigningKeyEvent & typeof recorded
    switch (event.type) {
      case 'signing-key.created': {
        const { kid, alg, publicJwk, sealedPrivateKey, createdAt } = event.data
        await trx
          .insertInto('jwks')
          .values({
            kid,
            alg,
            public_key: JSON.stringify(publicJwk),
            private_key: sealedPrivateKey,
            created_at: new Date(createdAt),
            retired_at: null,
          })
          .onConflict((oc) => oc.column('kid').doNothing())
          .execute()
        return
      }
      case 'signing-key.retired':
        await trx
          .updateTable('jwks')
          .set({ retired_at: new Date(event.data.retiredAt) })
          .where('kid', '=', event.data.kid)
          .execute()
        return
    }
  },
}
