/// The organization audit feed's entries: what each organization event shows owners and admins.
/// An allowlist: ids, roles, names and reasons, never an address (the invitee's is personal data).

import type { OrganizationEvent } from '../../domain/organization/organization.events.js'
import { commaSeparated } from '../../domain/organization/organization.upcasters.js'

const pick = (data: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((key) => data[key] !== undefined).map((key) => [key, data[key]]))

const SHOWN: Record<OrganizationEvent['type'], readonly string[] | null> = {
  'organization.created': ['name', 'slug'],
  'organization.updated': ['name', 'slug', 'previousSlug'],
  'organization.deleted': null,
  'organization.member-added': ['memberId', 'userId', 'role', 'invitationId'],
  'organization.member-removed': ['memberId', 'userId', 'reason'],
  'organization.member-role-updated': ['memberId', 'userId', 'role', 'previousRole'],
  'organization.invitation-created': ['invitationId', 'role', 'teamId', 'expiresAt'],
  'organization.invitation-renewed': ['invitationId', 'expiresAt'],
  'organization.invitation-accepted': ['invitationId', 'userId', 'memberId'],
  'organization.invitation-rejected': ['invitationId', 'userId'],
  'organization.invitation-canceled': ['invitationId'],
  'organization.team-created': ['teamId', 'name'],
  'organization.team-updated': ['teamId', 'name'],
  'organization.team-removed': ['teamId'],
  'organization.team-member-added': ['teamId', 'userId'],
  'organization.team-member-removed': ['teamId', 'userId'],
  'organization.role-created': ['roleId', 'role', 'permission'],
  'organization.role-updated': ['roleId', 'role', 'permission'],
  'organization.role-deleted': ['roleId', 'role'],
}

/** The entry's details, or null for an event the feed does not show. */
export const organizationActivityDetails = (event: OrganizationEvent): Record<string, unknown> | null => {
  const keys = SHOWN[event.type]
  if (!keys) return null
  // Roles and team ids as the feed showed them before events carried arrays.
  const details = pick(commaSeparated(event.data), keys)
  // The team made with the organization (create-team sets `updatedAt`; the default team has none).
  if (event.type === 'organization.team-created' && event.data.updatedAt === undefined)
    return { ...details, defaultTeam: true }
  return details
}
