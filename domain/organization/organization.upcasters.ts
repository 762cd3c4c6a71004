/// Versions of the organization's events (domain/shared/upcasting.ts). Version 1 stored roles and
/// team ids as comma-separated text, as better-auth's columns hold them, and every reader split it
/// again; version 2 carries arrays. Events of version 1 stay in the log and are upcast as read.
/// The wire keeps better-auth's comma-separated form: `commaSeparated` gives it back to the feeds.

import type { EventVersionings } from '../shared/upcasting.js'
import { upcaster } from '../shared/upcasting.js'
import type { OrganizationEvent } from './organization.events.js'

type DataOf<Type extends OrganizationEvent['type']> = Extract<OrganizationEvent, { type: Type }>['data']

/// Version 1, as written before 2026-11-28 (tests/fixtures/replay-log.2026-11.ndjson holds some).

export type MemberAddedV1 = Omit<DataOf<'organization.member-added'>, 'roles'> & { role: string }
export type MemberRoleUpdatedV1 = Omit<
  DataOf<'organization.member-role-updated'>,
  'roles' | 'previousRoles'
> & {
  role: string
  previousRole: string
}
export type InvitationCreatedV1 = Omit<DataOf<'organization.invitation-created'>, 'roles' | 'teamIds'> & {
  role: string
  teamId: string | null
}

// A plain split, no trimming: joining the parts again gives back exactly the text that was stored,
// so a read model rebuilt from an old event holds what it held before.
const rolesIn = (role: string): string[] => role.split(',')
const teamsIn = (teamId: string | null): string[] => (teamId ? teamId.split(',') : [])

export const memberAddedV2 = ({ role, ...rest }: MemberAddedV1): DataOf<'organization.member-added'> => ({
  ...rest,
  roles: rolesIn(role),
})

export const memberRoleUpdatedV2 = ({
  role,
  previousRole,
  ...rest
}: MemberRoleUpdatedV1): DataOf<'organization.member-role-updated'> => ({
  ...rest,
  roles: rolesIn(role),
  previousRoles: rolesIn(previousRole),
})

export const invitationCreatedV2 = ({
  role,
  teamId,
  ...rest
}: InvitationCreatedV1): DataOf<'organization.invitation-created'> => ({
  ...rest,
  roles: rolesIn(role),
  teamIds: teamsIn(teamId),
})

export const ORGANIZATION_EVENT_VERSIONS = {
  'organization.member-added': { upcasters: [upcaster(memberAddedV2)] },
  'organization.member-role-updated': { upcasters: [upcaster(memberRoleUpdatedV2)] },
  'organization.invitation-created': { upcasters: [upcaster(invitationCreatedV2)] },
} satisfies EventVersionings & Partial<Record<OrganizationEvent['type'], unknown>>

/**
 * An event's data as better-auth's wire and the feeds show it: roles and team ids comma-separated
 * (`role`, `previousRole`, `teamId`) in place of the arrays, every other field as it is.
 */
export const commaSeparated = (data: object): Record<string, unknown> => {
  const { roles, previousRoles, teamIds, ...rest } = data as {
    roles?: string[]
    previousRoles?: string[]
    teamIds?: string[]
  }
  return {
    ...rest,
    ...(roles ? { role: roles.join(',') } : {}),
    ...(previousRoles ? { previousRole: previousRoles.join(',') } : {}),
    ...(teamIds ? { teamId: teamIds.length > 0 ? teamIds.join(',') : null } : {}),
  }
}
