/// The JSON of organizations, members, invitations, teams and roles, in better-auth's organization
/// plugin's shapes, with TypeBox schemas that double as response schemas.

import { Type } from 'typebox'
import type { MemberWithUser } from '../../projections/organizations/organizations.repository.js'
import type {
  InvitationRow,
  MemberRow,
  OrganizationRow,
  RoleRow,
  TeamMemberRow,
  TeamRow,
} from '../../projections/organizations/organizations.table.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** An organization as better-auth reads it back: `metadata` is the stored JSON text (or null). */
export const OrganizationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  logo: Nullable(Type.String()),
  metadata: Nullable(Type.String()),
  createdAt: Type.String(),
})

/** An organization as create and update answer it: `metadata` parsed, and left out when there is none. */
export const WrittenOrganizationSchema = Type.Object({
  ...OrganizationSchema.properties,
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
})

export const MemberSchema = Type.Object({
  id: Type.String(),
  organizationId: Type.String(),
  userId: Type.String(),
  role: Type.String(),
  createdAt: Type.String(),
})

export const MemberUserSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  image: Nullable(Type.String()),
})

export const MemberWithUserSchema = Type.Object({
  ...MemberSchema.properties,
  user: MemberUserSchema,
})

export const InvitationSchema = Type.Object({
  id: Type.String(),
  organizationId: Type.String(),
  email: Type.String(),
  role: Type.String(),
  status: Type.String(),
  teamId: Nullable(Type.String()),
  inviterId: Type.String(),
  expiresAt: Type.String(),
  createdAt: Type.String(),
})

export const TeamSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  organizationId: Type.String(),
  createdAt: Type.String(),
  updatedAt: Nullable(Type.String()),
})

/** A team in get-full-organization, with how many team members it has (better-auth's `memberCount`). */
export const CountedTeamSchema = Type.Object({ ...TeamSchema.properties, memberCount: Type.Integer() })

export const TeamMemberSchema = Type.Object({
  id: Type.String(),
  teamId: Type.String(),
  userId: Type.String(),
  createdAt: Type.String(),
})

export const RoleSchema = Type.Object({
  id: Type.String(),
  organizationId: Type.String(),
  role: Type.String(),
  permission: Type.Record(Type.String(), Type.Array(Type.String())),
  createdAt: Type.String(),
  updatedAt: Nullable(Type.String()),
})

const parsed = (text: string | null): Record<string, unknown> | undefined => {
  if (!text) return undefined
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch {
    return undefined
  }
}

/**
 * better-auth parses `metadata` only in the answers of create and update (its adapter does, on
 * writing); list, get-full-organization, set-active and delete hand back the stored text.
 */
export const organizationJson = (row: OrganizationRow) => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  logo: row.logo,
  metadata: row.metadata,
  createdAt: row.created_at.toISOString(),
})

/** create's and update's answer: `metadata` parsed, or no key at all when there is none. */
export const writtenOrganizationJson = (row: OrganizationRow) => {
  const { metadata: _text, ...organization } = organizationJson(row)
  const metadata = parsed(row.metadata)
  return metadata === undefined ? organization : { ...organization, metadata }
}

export const memberJson = (row: MemberRow) => ({
  id: row.id,
  organizationId: row.organization_id,
  userId: row.user_id,
  role: row.role,
  createdAt: row.created_at.toISOString(),
})

export const memberWithUserJson = (row: MemberWithUser) => ({ ...memberJson(row), user: row.user })

export const invitationJson = (row: InvitationRow) => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  role: row.role,
  status: row.status,
  teamId: row.team_id,
  inviterId: row.inviter_id,
  expiresAt: row.expires_at.toISOString(),
  createdAt: row.created_at.toISOString(),
})

export const teamJson = (row: TeamRow) => ({
  id: row.id,
  name: row.name,
  organizationId: row.organization_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at?.toISOString() ?? null,
})

export const countedTeamJson = (row: TeamRow & { member_count: number }) => ({
  ...teamJson(row),
  memberCount: row.member_count,
})

export const teamMemberJson = (row: TeamMemberRow) => ({
  id: row.id,
  teamId: row.team_id,
  userId: row.user_id,
  createdAt: row.created_at.toISOString(),
})

export const roleJson = (row: RoleRow) => ({
  id: row.id,
  organizationId: row.organization_id,
  role: row.role,
  permission: JSON.parse(row.permission) as Record<string, string[]>,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at?.toISOString() ?? null,
})
