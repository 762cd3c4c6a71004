/// Projects organization events into the organization tables. A deleted user's memberships and the
/// invitations to their address go with them (the address is personal data).

import type { OrganizationEvent } from '../../domain/organization/organization.events.js'
import type { UserEvent } from '../../domain/user/user.events.js'
import { recordClientActivity } from '../oauth-provider/oauth-client-activity.js'
import { eventTypes, NO_EVENT_TYPES, type Projection } from '../projection.js'
import { insertRow } from '../runner/bound-statements.js'
import { recordDirectoryActivity } from '../scim/scim-activity.js'
import { organizationActivityDetails } from './organization-activity.js'

const json = (value: unknown): string | null => (value == null ? null : JSON.stringify(value))

export const organizationsProjection: Projection = {
  name: 'organizations',
  tables: [
    'organizations',
    'organization_members',
    'organization_invitations',
    'organization_teams',
    'organization_team_members',
    'organization_roles',
    'organization_activity',
  ],
  handles: eventTypes('organization.', 'scim.', 'oauth-client.', 'user.deleted'),
  readsPersonalMetadata: NO_EVENT_TYPES,
  async apply(trx, recorded) {
    const event = recorded as unknown as (OrganizationEvent | UserEvent) & typeof recorded
    if (event.type.startsWith('organization.'))
      await recordActivity(trx, recorded, event as OrganizationEvent)
    if (event.type.startsWith('scim.')) await recordDirectoryActivity(trx, recorded)
    if (event.type.startsWith('oauth-client.')) await recordClientActivity(trx, recorded)
    switch (event.type) {
      case 'organization.created': {
        const { organizationId, name, slug, logo, metadata, createdAt } = event.data
        await insertRow(trx, 'organizations', {
          id: organizationId,
          name,
          slug,
          logo,
          metadata: json(metadata),
          created_at: new Date(createdAt),
        })
        return
      }
      case 'organization.updated': {
        const { organizationId, name, slug, logo, metadata } = event.data
        await trx
          .updateTable('organizations')
          .set({ name, slug, logo, metadata: json(metadata) })
          .where('id', '=', organizationId)
          .execute()
        return
      }
      case 'organization.deleted': {
        const id = event.data.organizationId
        await trx.deleteFrom('organization_team_members').where('organization_id', '=', id).execute()
        await trx.deleteFrom('organization_teams').where('organization_id', '=', id).execute()
        await trx.deleteFrom('organization_invitations').where('organization_id', '=', id).execute()
        await trx.deleteFrom('organization_roles').where('organization_id', '=', id).execute()
        await trx.deleteFrom('organization_members').where('organization_id', '=', id).execute()
        await trx.deleteFrom('organizations').where('id', '=', id).execute()
        // The feed goes with the organization; the log keeps its story.
        await trx.deleteFrom('organization_activity').where('organization_id', '=', id).execute()
        return
      }
      case 'organization.member-added': {
        const { organizationId, memberId, userId, roles, createdAt } = event.data
        await insertRow(trx, 'organization_members', {
          id: memberId,
          organization_id: organizationId,
          user_id: userId,
          // better-auth's column: the roles as one comma-separated text.
          role: roles.join(','),
          created_at: new Date(createdAt),
        })
        return
      }
      case 'organization.member-removed': {
        const { organizationId, memberId, userId } = event.data
        await trx.deleteFrom('organization_members').where('id', '=', memberId).execute()
        await trx
          .deleteFrom('organization_team_members')
          .where('organization_id', '=', organizationId)
          .where('user_id', '=', userId)
          .execute()
        return
      }
      case 'organization.member-role-updated':
        await trx
          .updateTable('organization_members')
          .set({ role: event.data.roles.join(',') })
          .where('id', '=', event.data.memberId)
          .execute()
        return
      case 'organization.invitation-created': {
        const { organizationId, invitationId, email, roles, teamIds, inviterId, expiresAt, createdAt } =
          event.data
        await insertRow(trx, 'organization_invitations', {
          id: invitationId,
          organization_id: organizationId,
          // Null once the invitee's key is destroyed (a replay after erasure).
          email: email ?? '',
          role: roles.join(','),
          status: 'pending',
          team_id: teamIds.length > 0 ? teamIds.join(',') : null,
          inviter_id: inviterId,
          expires_at: new Date(expiresAt),
          created_at: new Date(createdAt),
        })
        return
      }
      case 'organization.invitation-renewed':
        await trx
          .updateTable('organization_invitations')
          .set({ expires_at: new Date(event.data.expiresAt) })
          .where('id', '=', event.data.invitationId)
          .execute()
        return
      case 'organization.invitation-accepted':
      case 'organization.invitation-rejected':
      case 'organization.invitation-canceled': {
        const status =
          event.type === 'organization.invitation-accepted'
            ? 'accepted'
            : event.type === 'organization.invitation-rejected'
              ? 'rejected'
              : 'canceled'
        await trx
          .updateTable('organization_invitations')
          .set({ status })
          .where('id', '=', event.data.invitationId)
          .execute()
        return
      }
      case 'organization.team-created': {
        const { organizationId, teamId, name, createdAt, updatedAt } = event.data
        await insertRow(trx, 'organization_teams', {
          id: teamId,
          organization_id: organizationId,
          name,
          created_at: new Date(createdAt),
          // Teams created before create-team recorded it keep null, live and on replay alike.
          updated_at: updatedAt ? new Date(updatedAt) : null,
        })
        return
      }
      case 'organization.team-updated':
        await trx
          .updateTable('organization_teams')
          .set({ name: event.data.name, updated_at: new Date(event.data.updatedAt) })
          .where('id', '=', event.data.teamId)
          .execute()
        return
      case 'organization.team-removed':
        await trx.deleteFrom('organization_team_members').where('team_id', '=', event.data.teamId).execute()
        await trx.deleteFrom('organization_teams').where('id', '=', event.data.teamId).execute()
        return
      case 'organization.team-member-added': {
        const { organizationId, teamId, teamMemberId, userId, createdAt } = event.data
        await insertRow(trx, 'organization_team_members', {
          id: teamMemberId,
          team_id: teamId,
          organization_id: organizationId,
          user_id: userId,
          created_at: new Date(createdAt),
        })
        return
      }
      case 'organization.team-member-removed':
        await trx
          .deleteFrom('organization_team_members')
          .where('team_id', '=', event.data.teamId)
          .where('user_id', '=', event.data.userId)
          .execute()
        return
      case 'organization.role-created': {
        const { organizationId, roleId, role, permission, createdAt } = event.data
        await insertRow(trx, 'organization_roles', {
          id: roleId,
          organization_id: organizationId,
          role,
          permission: JSON.stringify(permission),
          created_at: new Date(createdAt),
          updated_at: null,
        })
        return
      }
      case 'organization.role-updated': {
        const { roleId, role, permission, updatedAt } = event.data
        await trx
          .updateTable('organization_roles')
          .set({ role, permission: JSON.stringify(permission), updated_at: new Date(updatedAt) })
          .where('id', '=', roleId)
          .execute()
        return
      }
      case 'organization.role-deleted':
        await trx.deleteFrom('organization_roles').where('id', '=', event.data.roleId).execute()
        return
      case 'user.deleted': {
        const { userId } = event.data
        await trx.deleteFrom('organization_members').where('user_id', '=', userId).execute()
        await trx.deleteFrom('organization_team_members').where('user_id', '=', userId).execute()
        // The event's own address is erased with the person (same transaction): read it from
        // users, which this projection runs before.
        const user = await trx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst()
        if (user)
          await trx
            .deleteFrom('organization_invitations')
            .where('email', '=', user.email.toLowerCase())
            .execute()
        return
      }
    }
  },
}

const recordActivity = async (
  trx: Parameters<Projection['apply']>[0],
  recorded: Parameters<Projection['apply']>[1],
  event: OrganizationEvent,
) => {
  const details = organizationActivityDetails(event)
  if (!details) return
  const { actor } = recorded.metadata
  await insertRow(trx, 'organization_activity', {
    id: recorded.id,
    organization_id: event.data.organizationId,
    type: event.type,
    actor_user_id: actor.type === 'user' ? actor.userId : null,
    details: JSON.stringify(details),
    at: new Date(recorded.metadata.at),
    position: `${recorded.position.tx.toString().padStart(20, '0')}:${recorded.position.seq.toString().padStart(10, '0')}`,
  })
}
