/// The JSON shapes of users and sessions, as better-auth answers them, with TypeBox schemas that
/// also serve as response schemas (so no column such as `token_hash` can leak).

import { Type } from 'typebox'
import { DEFAULT_ROLE } from '../../domain/admin/permissions.js'
import type { SessionRow } from '../../projections/sessions/sessions.table.js'
import type { UserRow } from '../../projections/users/users.table.js'

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  image: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
  displayUsername: Type.Union([Type.String(), Type.Null()]),
  role: Type.String(),
  banned: Type.Boolean(),
  banReason: Type.Union([Type.String(), Type.Null()]),
  banExpires: Type.Union([Type.String(), Type.Null()]),
})

export const SessionSchema = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  token: Type.String(),
  expiresAt: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  ipAddress: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
  /** Where the device was when the session started, as the operator's trusted proxy placed its IP. */
  country: Type.Union([Type.String({ description: 'ISO 3166-1 alpha-2 country code' }), Type.Null()]),
  city: Type.Union([Type.String(), Type.Null()]),
  activeOrganizationId: Type.Union([Type.String(), Type.Null()]),
  activeTeamId: Type.Union([Type.String(), Type.Null()]),
  impersonatedBy: Type.Union([Type.String(), Type.Null()]),
})

export const userJson = (user: UserRow) => ({
  id: user.id,
  email: user.email,
  name: user.name,
  image: user.image,
  emailVerified: user.email_verified,
  createdAt: user.created_at.toISOString(),
  updatedAt: user.updated_at.toISOString(),
  username: user.username,
  displayUsername: user.display_username,
  // The admin plugin's fields: every user holds the default role until given another.
  role: user.role ?? DEFAULT_ROLE,
  banned: user.banned,
  banReason: user.ban_reason,
  banExpires: user.ban_expires?.toISOString() ?? null,
})

/**
 * `token` is the raw token when the caller holds it (get-session); in lists it is the session id,
 * a handle that revoke-session accepts, because raw tokens are not stored anywhere.
 */
export const sessionJson = (session: SessionRow, token: string) => ({
  id: session.id,
  userId: session.user_id,
  token,
  expiresAt: session.expires_at.toISOString(),
  createdAt: session.created_at.toISOString(),
  updatedAt: session.updated_at.toISOString(),
  ipAddress: session.ip_address,
  userAgent: session.user_agent,
  country: session.place_country,
  city: session.place_city,
  activeOrganizationId: session.active_organization_id,
  activeTeamId: session.active_team_id,
  impersonatedBy: session.impersonated_by,
})

export const StatusSchema = Type.Object({ status: Type.Boolean() })
