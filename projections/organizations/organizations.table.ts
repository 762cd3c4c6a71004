/// Read models of the organization aggregate: organizations, members, invitations, teams, team
/// members and custom roles, one table each, in better-auth's shapes. A deleted organization's rows
/// go with it; the log keeps its story.

import type { Kysely, Selectable } from 'kysely'

export type OrganizationsTable = {
  id: string
  name: string
  slug: string
  logo: string | null
  /** JSON text, as better-auth stores it. */
  metadata: string | null
  created_at: Date
}

export type OrganizationMembersTable = {
  id: string
  organization_id: string
  user_id: string
  role: string
  created_at: Date
}

export type OrganizationInvitationsTable = {
  id: string
  organization_id: string
  /** Lowercased; personal data, gone with the person who holds the address. */
  email: string
  role: string
  status: 'pending' | 'accepted' | 'rejected' | 'canceled'
  team_id: string | null
  inviter_id: string
  expires_at: Date
  created_at: Date
}

export type OrganizationTeamsTable = {
  id: string
  organization_id: string
  name: string
  created_at: Date
  updated_at: Date | null
}

export type OrganizationTeamMembersTable = {
  id: string
  team_id: string
  organization_id: string
  user_id: string
  created_at: Date
}

export type OrganizationRolesTable = {
  id: string
  organization_id: string
  role: string
  /** JSON text of resource → actions. */
  permission: string
  created_at: Date
  updated_at: Date | null
}

export type OrganizationRow = Selectable<OrganizationsTable>
export type MemberRow = Selectable<OrganizationMembersTable>
export type InvitationRow = Selectable<OrganizationInvitationsTable>
export type TeamRow = Selectable<OrganizationTeamsTable>
export type TeamMemberRow = Selectable<OrganizationTeamMembersTable>
export type RoleRow = Selectable<OrganizationRolesTable>

export const organizationsMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('logo', 'text')
      .addColumn('metadata', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('organization_members')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addUniqueConstraint('organization_members_org_user', ['organization_id', 'user_id'])
      .execute()
    await db.schema
      .createIndex('organization_members_user')
      .on('organization_members')
      .column('user_id')
      .execute()
    await db.schema
      .createTable('organization_invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text')
      .addColumn('inviter_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('organization_invitations_org')
      .on('organization_invitations')
      .column('organization_id')
      .execute()
    await db.schema
      .createIndex('organization_invitations_email')
      .on('organization_invitations')
      .column('email')
      .execute()
    await db.schema
      .createTable('organization_teams')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz')
      .execute()
    await db.schema
      .createIndex('organization_teams_org')
      .on('organization_teams')
      .column('organization_id')
      .execute()
    await db.schema
      .createTable('organization_team_members')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addUniqueConstraint('organization_team_members_team_user', ['team_id', 'user_id'])
      .execute()
    await db.schema
      .createIndex('organization_team_members_user')
      .on('organization_team_members')
      .column('user_id')
      .execute()
    await db.schema
      .createTable('organization_roles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('permission', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz')
      .execute()
    await db.schema
      .createIndex('organization_roles_org')
      .on('organization_roles')
      .column('organization_id')
      .execute()
    // A session's active team (the organization plugin's `activeTeamId`).
    await db.schema.alterTable('sessions').addColumn('active_team_id', 'text').execute()
  },
}

/** The organization's audit feed: who did what, when (newest first in `GET /organization/activity`). */
export type OrganizationActivityTable = {
  /** The event id. */
  id: string
  organization_id: string
  type: string
  /** The user who acted; null for the system (the CLI, a deleted account's memberships). */
  actor_user_id: string | null
  /** JSON text of the allowlisted details (ids, roles, names; no addresses). */
  details: string
  at: Date
  /** The event's place in the log, zero-padded so that text order is log order. */
  position: string
}

export type OrganizationActivityRow = Selectable<OrganizationActivityTable>

export const organizationActivityMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('organization_activity')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('actor_user_id', 'text')
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addColumn('position', 'text', (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('organization_activity_feed')
      .on('organization_activity')
      .columns(['organization_id', 'position'])
      .execute()
  },
}
