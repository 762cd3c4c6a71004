/// Projects linked-account events into the `accounts` read model (beside credential accounts, whose
/// rows the users projection writes and, with the user, deletes). No token reaches the table.

import type { LinkedAccountEvent } from '../../domain/linked-accounts/linked-accounts.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value))

export const linkedAccountsProjection: Projection = {
  name: 'linked-accounts',
  // The rows live in `accounts`, which the users projection owns (and a replay empties).
  tables: [],
  handles: eventTypes('account.'),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    if (!recorded.type.startsWith('account.')) return
    // The user was deleted and their key destroyed: user.deleted removed the rows already.
    if (recorded.metadata.erased) return
    const event = recorded as unknown as LinkedAccountEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'account.linked': {
        const { data } = event
        await trx
          .insertInto('accounts')
          .values({
            id: data.accountId,
            user_id: data.userId,
            provider_id: data.providerId,
            account_id: data.providerAccountId,
            password: null,
            scope: data.scope,
            access_token_expires_at: dateOrNull(data.accessTokenExpiresAt),
            refresh_token_expires_at: dateOrNull(data.refreshTokenExpiresAt),
            created_at: at,
            updated_at: at,
          })
          .execute()
        return
      }
      case 'account.tokens-updated': {
        const { data } = event
        await trx
          .updateTable('accounts')
          .set({
            access_token_expires_at: dateOrNull(data.accessTokenExpiresAt),
            ...(data.refreshTokenExpiresAt
              ? { refresh_token_expires_at: new Date(data.refreshTokenExpiresAt) }
              : {}),
            ...(data.scope ? { scope: data.scope } : {}),
            updated_at: at,
          })
          .where('id', '=', data.accountId)
          .execute()
        return
      }
      case 'account.unlinked':
        await trx.deleteFrom('accounts').where('id', '=', event.data.accountId).execute()
        return
    }
  },
}
