/// Projects session events into `sessions`.

import type { OrganizationEvent } from '../../domain/organization/organization.events.js'
import type { ScimUserEvent } from '../../domain/scim/scim-user.js'
import type { SessionEvent } from '../../domain/session/session.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'
import { deleteRows, insertRow, updateRows } from '../runner/bound-statements.js'
import { consumeRevocation } from './pending-revocations.js'

export const sessionsProjection: Projection = {
  name: 'sessions',
  tables: ['sessions'],
  handles: eventTypes(
    'session.',
    'organization.member-removed',
    'organization.team-member-removed',
    'user.banned',
    'user.deleted',
    'scim.user-deactivated',
  ),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const event = recorded as unknown as (SessionEvent | UserEvent | OrganizationEvent | ScimUserEvent) &
      typeof recorded
    const at = new Date(recorded.metadata.at)
    switch (event.type) {
      case 'session.started': {
        const { sessionId, userId, tokenHash, expiresAt, ipAddress, userAgent, place, rememberMe } =
          event.data
        await insertRow(trx, 'sessions', {
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
        return
      }
      case 'session.refreshed':
        await updateRows(
          trx,
          'sessions',
          { expires_at: new Date(event.data.expiresAt), updated_at: at },
          { id: event.data.sessionId },
        )
        return
      case 'session.revoked':
      case 'session.expired':
        await deleteRows(trx, 'sessions', { id: event.data.sessionId })
        await consumeRevocation(trx, recorded)
        return
      case 'session.active-organization-set':
        await updateRows(
          trx,
          'sessions',
          { active_organization_id: event.data.organizationId, active_team_id: event.data.teamId },
          { id: event.data.sessionId },
        )
        return
      // Leaving an organization (or a team), being removed or its deletion clears it from all of the
      // member's sessions, not only the one that asked.
      case 'organization.member-removed':
        await updateRows(
          trx,
          'sessions',
          { active_organization_id: null, active_team_id: null },
          { user_id: event.data.userId, active_organization_id: event.data.organizationId },
        )
        return
      case 'organization.team-member-removed':
        await updateRows(
          trx,
          'sessions',
          { active_team_id: null },
          { user_id: event.data.userId, active_team_id: event.data.teamId },
        )
        return
      // Sessions go with their user, and end when the user is banned.
      case 'user.banned':
      case 'user.deleted':
      case 'scim.user-deactivated':
        await deleteRows(trx, 'sessions', { user_id: event.data.userId })
        await consumeRevocation(trx, recorded)
        return
    }
  },
}
