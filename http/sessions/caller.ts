/// The signed-in caller as routes speak of it: camelCase, mapped once from the read model's rows, so
/// a route reads `caller.activeOrganizationId` instead of reaching into `session.session.*`. The
/// found session stays reachable (`found`) for the use cases that still take it whole.

import type { FastifyRequest } from 'fastify'
import { authOf } from './require-session.js'
import type { FoundSession } from './resolve-session.js'

export type Caller = {
  userId: string
  email: string
  emailVerified: boolean
  role: string | null
  sessionId: string
  activeOrganizationId: string | null
  activeTeamId: string | null
  /** The operator who opened this session as the user (admin impersonation); null otherwise. */
  impersonatedBy: string | null
  found: FoundSession
}

export const callerFrom = (found: FoundSession): Caller => ({
  userId: found.user.id,
  email: found.user.email,
  emailVerified: found.user.email_verified,
  role: found.user.role,
  sessionId: found.session.id,
  activeOrganizationId: found.session.active_organization_id,
  activeTeamId: found.session.active_team_id,
  impersonatedBy: found.session.impersonated_by,
  found,
})

/** The caller behind a route guarded by `requireSession`. */
export const callerOfRequest = (request: FastifyRequest): Caller => callerFrom(authOf(request))
