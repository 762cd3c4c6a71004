/// The admin permission check as route configuration: a route declares
/// `config: adminPermission({ user: ['ban'] }, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS')` and one preHandler
/// hook (`adminPermissionHook`) authorizes the caller before the handler runs, which reads the caller
/// with `adminCallerOf(request)`. It runs after body validation, as the check inside each handler did,
/// so a malformed body is still a 400 before the caller is looked at.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { PermissionRequest } from '../../domain/admin/permissions.js'
import { AUTH_ERRORS, type AuthErrorCode } from '../../domain/errors.js'
import type { AdminCaller, adminGuard } from './admin-caller.js'

export type AdminPermission = { permission: PermissionRequest; refusal: AuthErrorCode }

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What an admin route asks of its caller; read by `adminPermissionHook`. */
    adminPermission?: AdminPermission
  }
  interface FastifyRequest {
    /** The caller `adminPermissionHook` let in. */
    adminCaller: AdminCaller | null
  }
}

/** A route's config: the permission it asks, and the 403 code of a caller who lacks it. */
export const adminPermission = (permission: PermissionRequest, refusal: AuthErrorCode) => ({
  adminPermission: { permission, refusal },
})

/** Registers the hook on `app`: every route there with an `adminPermission` config is guarded. */
export const adminPermissionHook = (app: FastifyInstance, guard: ReturnType<typeof adminGuard>) => {
  app.decorateRequest('adminCaller', null)
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const asked = request.routeOptions.config.adminPermission
    if (asked) request.adminCaller = await guard.authorize(request, reply, asked.permission, asked.refusal)
  })
}

/** The caller of a route guarded by `adminPermission`. */
export const adminCallerOf = (request: FastifyRequest): AdminCaller => {
  if (!request.adminCaller) throw AUTH_ERRORS.error('UNAUTHORIZED')
  return request.adminCaller
}
