/// Projects user events into `users` and `accounts`.

import type { UserEvent } from '../../domain/user/user.js'
import type { Projection } from '../projection.js'

export const CREDENTIAL_PROVIDER = 'credential'

export const usersProjection: Projection = {
  name: 'users',
  tables: ['users', 'accounts'],
  async apply(trx, recorded) {
    const event = recorded as unknown as UserEvent & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'user.registered': {
        const { userId, email, name, image, emailVerified, credential } = event.data
        await trx
          .insertInto('users')
          .values({ id: userId, email, name, image, email_verified: emailVerified, created_at: at, updated_at: at })
          .execute()
        if (credential)
          await trx
            .insertInto('accounts')
            .values({
              id: credential.accountId,
              user_id: userId,
              provider_id: CREDENTIAL_PROVIDER,
              account_id: userId,
              password: credential.passwordHash,
              created_at: at,
              updated_at: at,
            })
            .execute()
        return
      }
    }
  },
}
