/// Projects session events into `sessions`.

import type { SessionEvent } from '../../domain/session/session.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import type { Projection } from '../projection.js'
import { consumeRevocation } from './pending-revocations.js'

export const sessionsProjection: Projection = {
  name: 'sessions',
  tables: ['sessions'],
  async apply(trx, recorded) {
    const event = recorded as unknown as (SessionEvent | UserEvent) & typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'session.started': {
        const { sessionId, userId, tokenHash, expiresAt, ipAddress, userAgent, rememberMe } = event.data
        await trx
          .insertInto('sessions')
          .values({
            id: sessionId,
            user_id: userId,
            token_hash: tokenHash,
            expires_at: new Date(expiresAt),
            ip_address: ipAddress,
            user_agent: userAgent,
            remember_me: rememberMe,
            active_organization_id: null,
            created_at: at,
            updated_at: at,
          })
          .execute()
        return
      }
      case 'session.refreshed':
        await trx
          .updateTable('sessions')
          .set({ expires_at: new Date(event.data.expiresAt), updated_at: at })
          .where('id', '=', event.data.sessionId)
          .execute()
        return
      case 'session.revoked':
      case 'session.expired':
        await trx.deleteFrom('sessions').where('id', '=', event.data.sessionId).execute()
        await consumeRevocation(trx, recorded)
        return
      // Sessions go with their user.
      case 'user.deleted':
        await trx.deleteFrom('sessions').where('user_id', '=', event.data.userId).execute()
        await consumeRevocation(trx, recorded)
        return
    }
  },
}
