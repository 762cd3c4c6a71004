/// Projects the one-time tokens users were mailed into `one_time_tokens`.

import { MAX_OUTSTANDING_TOKENS } from '../../domain/user/user.decide.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

export const oneTimeTokensProjection: Projection = {
  name: 'one-time-tokens',
  tables: ['one_time_tokens'],
  handles: eventTypes(
    'user.password-reset-requested',
    'user.deletion-requested',
    'user.token-discarded',
    'user.email-changed',
    'user.password-reset',
    'user.password-changed',
    'user.password-set',
    'user.banned',
    'user.deleted',
  ),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const event = recorded as unknown as UserEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'user.password-reset-requested':
      case 'user.deletion-requested': {
        const purpose = event.type === 'user.password-reset-requested' ? 'password-reset' : 'delete-account'
        await trx
          .insertInto('one_time_tokens')
          .values({
            token_hash: event.data.tokenHash,
            user_id: event.data.userId,
            purpose,
            expires_at: new Date(event.data.expiresAt),
            created_at: at,
          })
          .onConflict((oc) => oc.column('token_hash').doNothing())
          .execute()
        // As the aggregate: only the newest few links of a kind stay usable.
        const outstanding = await trx
          .selectFrom('one_time_tokens')
          .select('token_hash')
          .where('user_id', '=', event.data.userId)
          .where('purpose', '=', purpose)
          .orderBy('created_at', 'desc')
          .execute()
        const pushedOut = outstanding.slice(MAX_OUTSTANDING_TOKENS).map((row) => row.token_hash)
        if (pushedOut.length > 0)
          await trx.deleteFrom('one_time_tokens').where('token_hash', 'in', pushedOut).execute()
        return
      }
      case 'user.token-discarded':
        await trx.deleteFrom('one_time_tokens').where('token_hash', '=', event.data.tokenHash).execute()
        return
      // Links mailed to the old address stop working with the change, and a new password or a ban
      // voids every link outstanding, as in the aggregate (domain/user/user.ts, withoutLinks).
      case 'user.email-changed':
      case 'user.password-reset':
      case 'user.password-changed':
      case 'user.password-set':
      case 'user.banned':
      case 'user.deleted':
        await trx.deleteFrom('one_time_tokens').where('user_id', '=', event.data.userId).execute()
        return
    }
  },
}
