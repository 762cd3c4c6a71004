/// Who is calling an admin route, and whether they may: a signed-in user whose role holds the
/// permission (domain/admin/permissions.ts) or who is listed in `admin.adminUserIds`, or the
/// application's backend with a server key (the server API, which may do everything). Anyone else gets better-auth's answers: 401 without a
/// session, 403 with the route's own code when the role lacks the permission.

import type { FastifyReply, FastifyRequest } from 'fastify'
import { hasAdminPermission, type PermissionRequest } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'
import type { Actor } from '../../domain/shared/metadata.js'
import { sessionGuards } from '../sessions/require-session.js'
import type { FoundSession, SessionResolver } from '../sessions/resolve-session.js'

/** The server API's guard as admin routes need it (http/guards/server-key.ts). */
export type ServerKeyCheck = {
  optionalServerKey(request: FastifyRequest, reply: FastifyReply): Promise<{ readonly name: string } | null>
}

/**
 * Whether a person has a second factor: two-factor on, or a passkey (`twoFactor.requiredFor`). The
 * composition root fills it (command-api/two-factor/second-factors.ts).
 */
export type SecondFactorCheck = { hasSecondFactor(userId: string): Promise<boolean> }

/** What the guard needs; both layers' contexts hold it. */
export type AdminGuardContext = {
  sessions: SessionResolver
  clock: () => Date
  serverApi?: ServerKeyCheck
  secondFactors?: SecondFactorCheck
  config: { admin: { adminUserIds: readonly string[] }; twoFactor?: { requiredFor: readonly string[] } }
}

/**
 * Tessera's own (`twoFactor.requiredFor`): an operator whose role is listed there gets 403
 * TWO_FACTOR_REQUIRED until they have a second factor. Without the check wired in, it fails closed.
 */
const requireSecondFactor = async (
  ctx: AdminGuardContext,
  userId: string,
  role: string | null,
  listed: boolean,
) => {
  const required = ctx.config.twoFactor?.requiredFor ?? []
  if (required.length === 0) return
  const roles = [...(role ?? 'user').split(',').map((name) => name.trim()), ...(listed ? ['admin'] : [])]
  if (!roles.some((name) => required.includes(name))) return
  if (!(await ctx.secondFactors?.hasSecondFactor(userId))) throw AUTH_ERRORS.error('TWO_FACTOR_REQUIRED')
}

export type AdminCaller =
  | {
      kind: 'user'
      actor: Actor
      userId: string
      role: string | null
      /** Listed in `admin.adminUserIds`: every admin permission, whatever the role. */
      listed: boolean
      session: FoundSession
    }
  | { kind: 'server'; actor: Actor; userId: null; role: null; listed: false; session: null }

/** Whether the caller may do what `request` asks: a server key or a listed admin may do all of it. */
export const callerMay = (caller: AdminCaller, request: PermissionRequest): boolean =>
  caller.kind === 'server' || caller.listed || hasAdminPermission(caller.role, request)

export const adminGuard = (ctx: AdminGuardContext) => {
  const guards = sessionGuards(ctx)
  /** The caller, refused with 401 when neither a server key nor a live session stands behind it. */
  const callerOf = async (request: FastifyRequest, reply: FastifyReply): Promise<AdminCaller> => {
    const server = (await ctx.serverApi?.optionalServerKey(request, reply)) ?? null
    if (server)
      return {
        kind: 'server',
        actor: { type: 'server', name: server.name },
        userId: null,
        role: null,
        listed: false,
        session: null,
      }
    const found = await guards.optionalSession(request)
    if (!found) throw AUTH_ERRORS.error('UNAUTHORIZED')
    request.auth = found
    const listed = ctx.config.admin.adminUserIds.includes(found.user.id)
    await requireSecondFactor(ctx, found.user.id, found.user.role, listed)
    return {
      kind: 'user',
      actor: { type: 'user', userId: found.user.id },
      userId: found.user.id,
      role: found.user.role,
      listed,
      session: found,
    }
  }
  return {
    callerOf,
    /** The caller, refused with `refusal` (403) unless they may do what `permission` asks. */
    async authorize(
      request: FastifyRequest,
      reply: FastifyReply,
      permission: PermissionRequest,
      refusal: AuthErrorCode,
    ): Promise<AdminCaller> {
      const caller = await callerOf(request, reply)
      if (!callerMay(caller, permission)) throw AUTH_ERRORS.error(refusal)
      return caller
    },
  }
}
