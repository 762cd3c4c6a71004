/// Impersonation (better-auth's admin plugin): an operator opens a session as a user, marked
/// `impersonatedBy`, for one hour by default (`admin.impersonationSessionDuration`); their own
/// session waits in a signed `admin_session` cookie, and stop-impersonating ends the impersonation and
/// hands that session back. Another admin may not be impersonated unless a role holds
/// `impersonate-admins` (or `admin.allowImpersonatingAdmins` is set). While it lasts, every command
/// carries both identities (the session's user as actor, `impersonatedBy` in the metadata, see
/// infra/http/request-metadata.ts), and reads in the person's activity as support acting for them.

import { type AdminPolicy, IMPERSONATION_SECONDS } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { sessionDecider, sessionStream } from '../../domain/session/session.js'
import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import type { SessionWithUser } from '../../http/ports/session-lookup.js'
import type { KnownUser } from '../../http/ports/user-lookup.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import type { CommandContext } from '../context.js'
import { type StartedSession, startSession } from '../sessions/start-session.js'
import { existingUser } from './manage-users.js'

/** The admin options (`admin` in the config file), and how long the session lasts (seconds). */
export type ImpersonationOptions = AdminPolicy & { lifetimeSeconds?: number }

export type Impersonation = { session: StartedSession; user: KnownUser; expiresAt: Date }

export const impersonateUser = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  operator: FoundSession,
  targetUserId: string,
  options: ImpersonationOptions = {},
): Promise<Impersonation> => {
  const target = await existingUser(ctx, targetUserId)
  const { lifetimeSeconds: _, ...policy } = options
  const lifetimeSeconds = options.lifetimeSeconds ?? IMPERSONATION_SECONDS
  const expiresAt = new Date(ctx.clock().getTime() + lifetimeSeconds * 1000)
  // Not remembered: the cookie ends with the browser and the session never slides past its hour.
  const session = await startSession(ctx, origin, {
    userId: target.id,
    rememberMe: false,
    impersonatedBy: operator.user.id,
    lifetimeSeconds,
    // Whether this operator may act as this person is the session decider's rule.
    impersonation: {
      operator: { id: operator.user.id, role: operator.user.role },
      target: { id: target.id, role: target.role },
      policy,
    },
  })
  return { session, user: target, expiresAt }
}

/**
 * Ends the impersonation `current` is, and finds the operator's own session from the
 * `admin_session` cookie's token: it must still be live and belong to the operator who impersonated.
 */
export const stopImpersonating = async (
  ctx: CommandContext,
  origin: RequestOrigin,
  current: FoundSession,
  adminToken: string | null,
): Promise<SessionWithUser & { token: string }> => {
  const operatorId = current.session.impersonated_by
  if (!operatorId) throw AUTH_ERRORS.error('NOT_IMPERSONATING')
  const lookup = adminToken ? await ctx.sessions.lookup(adminToken, ctx.clock()) : null
  if (lookup?.status !== 'valid' || lookup.found.user.id !== operatorId)
    throw AUTH_ERRORS.error('ADMIN_SESSION_NOT_FOUND')
  await ctx.handle(
    sessionDecider,
    sessionStream(current.session.id),
    { type: 'revoke-session', requestedBy: null, reason: 'sign-out' },
    { metadata: metadataFor(origin, { type: 'user', userId: operatorId }, ctx.clock()) },
  )
  return lookup.found
}
