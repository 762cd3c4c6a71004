/// Team memberships of a whole organization in one read, for the portal's team pages.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type { TeamMemberRow } from './organizations.table.js'

export const listTeamMembersOfOrganization = (
  db: Kysely<Database>,
  organizationId: string,
): Promise<TeamMemberRow[]> =>
  db
    .selectFrom('organization_team_members')
    .innerJoin('organization_teams', 'organization_teams.id', 'organization_team_members.team_id')
    .selectAll('organization_team_members')
    .where('organization_teams.organization_id', '=', organizationId)
    .orderBy('organization_team_members.created_at')
    .orderBy('organization_team_members.id')
    .execute()
