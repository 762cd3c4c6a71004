/// Projects session events into `sessions`.

import type { OrganizationEvent } from '../../domain/organization/organization.events.js'
import type { ScimUserEvent } from '../../domain/scim/scim-user.js'
import type { SessionEvent } from '../../domain/session/session.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import type { Projection } from '../projection.js'
import { consumeRevocation } from './pending-revocations.js'

export const sessionsProjection: Projection = {
  name: 'sessions',
  tables: ['sessions'],
  async apply(trx, recorded) {
    const event = recorded as unknown as (SessionEvent | UserEvent | OrganizationEvent | ScimUserEvent) &
      typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'session.started': {
        const { sessionId, userId, tokenHash, expiresAt, ipAddress, userAgent, place, rememberMe } =
          event.data
        await trx
          .insertInto('sessions')
          .values({
            id: sessionId,
            user_id: userId,
            token_hash: tokenHash,
            expires_at: new Date(expiresAt),
            ip_address: ipAddress,
            user_agent: userAgent,
            place_country: place?.country ?? null,
            place_city: place?.city ?? null,
            remember_me: rememberMe,
            active_organization_id: null,
            active_team_id: null,
            impersonated_by: event.data.impersonatedBy ?? null,
            amr: event.data.amr ? JSON.stringify(event.data.amr) : null,
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
      case 'session.active-organization-set':
        await trx
          .updateTable('sessions')
          .set({ active_organization_id: event.data.organizationId, active_team_id: event.data.teamId })
          .where('id', '=', event.data.sessionId)
          .execute()
        return
      // Leaving an organization (or a team), being removed or its deletion clears it from all of the
      // member's sessions, not only the one that asked.
      case 'organization.member-removed':
        await trx
          .updateTable('sessions')
          .set({ active_organization_id: null, active_team_id: null })
          .where('user_id', '=', event.data.userId)
          .where('active_organization_id', '=', event.data.organizationId)
          .execute()
        return
      case 'organization.team-member-removed':
        await trx
          .updateTable('sessions')
          .set({ active_team_id: null })
          .where('user_id', '=', event.data.userId)
          .where('active_team_id', '=', event.data.teamId)
          .execute()
        return
      // Sessions go with their user, and end when the user is banned.
      case 'user.banned':
      case 'user.deleted':
      case 'scim.user-deactivated':
        await trx.deleteFrom('sessions').where('user_id', '=', event.data.userId).execute()
        await consumeRevocation(trx, recorded)
        return
    }
  },
}
