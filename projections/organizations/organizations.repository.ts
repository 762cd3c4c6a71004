/// Queries over the organization read models.

import type { Kysely } from 'kysely'
import type { Database } from '../database.js'
import type {
  InvitationRow,
  MemberRow,
  OrganizationActivityRow,
  OrganizationRow,
  RoleRow,
  TeamMemberRow,
  TeamRow,
} from './organizations.table.js'

type Db = Kysely<Database>

export type MemberUser = { id: string; name: string; email: string; image: string | null }
export type MemberWithUser = MemberRow & { user: MemberUser }

export const findOrganization = (db: Db, id: string): Promise<OrganizationRow | undefined> =>
  db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst()

export const findOrganizationBySlug = (db: Db, slug: string): Promise<OrganizationRow | undefined> =>
  db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst()

export const listOrganizationsOfUser = (db: Db, userId: string): Promise<OrganizationRow[]> =>
  db
    .selectFrom('organization_members')
    .innerJoin('organizations', 'organizations.id', 'organization_members.organization_id')
    .selectAll('organizations')
    .where('organization_members.user_id', '=', userId)
    .orderBy('organizations.created_at')
    .execute()

export const countOrganizationsOfUser = async (db: Db, userId: string): Promise<number> => {
  const row = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export const findMember = (db: Db, organizationId: string, userId: string): Promise<MemberRow | undefined> =>
  db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst()

export const findMemberById = (db: Db, id: string): Promise<MemberRow | undefined> =>
  db.selectFrom('organization_members').selectAll().where('id', '=', id).executeTakeFirst()

const membersWithUsersQuery = (db: Db) =>
  db
    .selectFrom('organization_members')
    .innerJoin('users', 'users.id', 'organization_members.user_id')
    .selectAll('organization_members')
    .select(['users.name as u_name', 'users.email as u_email', 'users.image as u_image'])

type JoinedMember = MemberRow & { u_name: string; u_email: string; u_image: string | null }

const withUser = ({ u_name, u_email, u_image, ...member }: JoinedMember): MemberWithUser => ({
  ...member,
  user: { id: member.user_id, name: u_name, email: u_email, image: u_image },
})

export const findMemberWithUser = async (
  db: Db,
  organizationId: string,
  userId: string,
): Promise<MemberWithUser | undefined> => {
  const row = await membersWithUsersQuery(db)
    .where('organization_members.organization_id', '=', organizationId)
    .where('organization_members.user_id', '=', userId)
    .executeTakeFirst()
  return row && withUser(row)
}

export const findMemberByEmail = async (
  db: Db,
  organizationId: string,
  email: string,
): Promise<MemberWithUser | undefined> => {
  const row = await membersWithUsersQuery(db)
    .where('organization_members.organization_id', '=', organizationId)
    .where('users.email', '=', email.toLowerCase())
    .executeTakeFirst()
  return row && withUser(row)
}

export type MemberListing = {
  limit?: number
  offset?: number
  sortBy?: 'createdAt' | 'role' | 'userId' | 'id'
  sortDirection?: 'asc' | 'desc'
  filter?: { field: 'role' | 'userId' | 'id'; operator: 'eq' | 'ne' | 'contains'; value: string }
}

const COLUMN = { createdAt: 'created_at', role: 'role', userId: 'user_id', id: 'id' } as const

export const listMembers = async (
  db: Db,
  organizationId: string,
  listing: MemberListing = {},
): Promise<{ members: MemberWithUser[]; total: number }> => {
  let query = membersWithUsersQuery(db).where('organization_members.organization_id', '=', organizationId)
  if (listing.filter) {
    const column = `organization_members.${COLUMN[listing.filter.field]}` as const
    const { operator, value } = listing.filter
    query =
      operator === 'contains'
        ? query.where(column, 'like', `%${value.replace(/[%_\\]/g, '\\$&')}%`)
        : query.where(column, operator === 'eq' ? '=' : '<>', value)
  }
  const totalRow = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  const sorted = query
    .orderBy(`organization_members.${COLUMN[listing.sortBy ?? 'createdAt']}`, listing.sortDirection ?? 'asc')
    .orderBy('organization_members.id')
  const rows = await sorted
    .limit(listing.limit ?? 100)
    .offset(listing.offset ?? 0)
    .execute()
  return { members: rows.map(withUser), total: Number(totalRow.n) }
}

/**
 * The first `limit` members with their users, in creation order, without counting them (one query);
 * `complete` says whether that is every member (one row more than `limit` is read to tell).
 */
export const listFirstMembers = async (
  db: Db,
  organizationId: string,
  limit: number,
): Promise<{ members: MemberWithUser[]; complete: boolean }> => {
  const rows = await membersWithUsersQuery(db)
    .where('organization_members.organization_id', '=', organizationId)
    .orderBy('organization_members.created_at')
    .orderBy('organization_members.id')
    .limit(limit + 1)
    .execute()
  return { members: rows.slice(0, limit).map(withUser), complete: rows.length <= limit }
}

export const listInvitations = (db: Db, organizationId: string): Promise<InvitationRow[]> =>
  db
    .selectFrom('organization_invitations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()

export const findInvitation = (db: Db, id: string): Promise<InvitationRow | undefined> =>
  db.selectFrom('organization_invitations').selectAll().where('id', '=', id).executeTakeFirst()

export const listInvitationsOfEmail = (
  db: Db,
  email: string,
): Promise<(InvitationRow & { organization_name: string })[]> =>
  db
    .selectFrom('organization_invitations')
    .innerJoin('organizations', 'organizations.id', 'organization_invitations.organization_id')
    .selectAll('organization_invitations')
    .select('organizations.name as organization_name')
    .where('organization_invitations.email', '=', email.toLowerCase())
    .orderBy('organization_invitations.created_at')
    .execute()

export const listTeams = (db: Db, organizationId: string): Promise<TeamRow[]> =>
  db
    .selectFrom('organization_teams')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()

/** The organization's teams, each with how many team members it has. */
export const listTeamsWithMemberCounts = (
  db: Db,
  organizationId: string,
): Promise<(TeamRow & { member_count: number })[]> =>
  db
    .selectFrom('organization_teams')
    .selectAll()
    .select((eb) =>
      eb
        .selectFrom('organization_team_members')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('organization_team_members.team_id', '=', 'organization_teams.id')
        .$castTo<number>()
        .as('member_count'),
    )
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, member_count: Number(row.member_count) })))

export const findTeam = (db: Db, id: string): Promise<TeamRow | undefined> =>
  db.selectFrom('organization_teams').selectAll().where('id', '=', id).executeTakeFirst()

export const listTeamMembers = (db: Db, teamId: string): Promise<TeamMemberRow[]> =>
  db
    .selectFrom('organization_team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()

export const findTeamMember = (db: Db, teamId: string, userId: string): Promise<TeamMemberRow | undefined> =>
  db
    .selectFrom('organization_team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst()

export const listTeamsOfUser = (db: Db, userId: string): Promise<TeamRow[]> =>
  db
    .selectFrom('organization_team_members')
    .innerJoin('organization_teams', 'organization_teams.id', 'organization_team_members.team_id')
    .selectAll('organization_teams')
    .where('organization_team_members.user_id', '=', userId)
    .orderBy('organization_teams.created_at')
    .execute()

export const listRoles = (db: Db, organizationId: string): Promise<RoleRow[]> =>
  db
    .selectFrom('organization_roles')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()

/** The organization's custom roles as permission data, by name (for permission checks). */
export const customRolesOf = async (
  db: Db,
  organizationId: string,
): Promise<Record<string, Record<string, string[]>>> =>
  Object.fromEntries(
    (await listRoles(db, organizationId)).map((row) => [
      row.role,
      JSON.parse(row.permission) as Record<string, string[]>,
    ]),
  )

/** The feed newest first (log order), after `before` (the last position of the previous page). */
export const listOrganizationActivity = (
  db: Db,
  organizationId: string,
  before: string | null,
  limit: number,
): Promise<OrganizationActivityRow[]> => {
  let query = db.selectFrom('organization_activity').selectAll().where('organization_id', '=', organizationId)
  if (before) query = query.where('position', '<', before)
  return query.orderBy('position', 'desc').limit(limit).execute()
}
