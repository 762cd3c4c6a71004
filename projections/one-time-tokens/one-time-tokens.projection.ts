/// Projects the one-time tokens users were mailed into `one_time_tokens`.

import type { UserEvent } from '../../domain/user/user.events.js'
import type { Projection } from '../projection.js'

export const oneTimeTokensProjection: Projection = {
  name: 'one-time-tokens',
  tables: ['one_time_tokens'],
  async apply(trx, recorded) {
    const event = recorded as unknown as UserEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'user.password-reset-requested':
      case 'user.deletion-requested':
        await trx
          .insertInto('one_time_tokens')
          .values({
            token_hash: event.data.tokenHash,
            user_id: event.data.userId,
            purpose: event.type === 'user.password-reset-requested' ? 'password-reset' : 'delete-account',
            expires_at: new Date(event.data.expiresAt),
            created_at: at,
          })
          .onConflict((oc) => oc.column('token_hash').doNothing())
          .execute()
        return
      // A reset voids every outstanding reset token of the user, as the aggregate does.
      case 'user.password-reset':
        await trx
          .deleteFrom('one_time_tokens')
          .where('user_id', '=', event.data.userId)
          .where('purpose', '=', 'password-reset')
          .execute()
        return
      case 'user.token-discarded':
        await trx.deleteFrom('one_time_tokens').where('token_hash', '=', event.data.tokenHash).execute()
        return
      case 'user.deleted':
        await trx.deleteFrom('one_time_tokens').where('user_id', '=', event.data.userId).execute()
        return
    }
  },
}
