/// has-permission: whether the caller (or, for a server key, a user or a role) holds permissions.
/// It asks for none itself, so it reads the caller through the guard rather than the hook.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { hasAdminPermission, userMay } from '../../../domain/admin/permissions.js'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { DomainError } from '../../../domain/shared/errors.js'
import { adminGuard, callerMay } from '../../../http/guards/admin-caller.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import { ADMIN_ERRORS, type AdminRouteContext, body, Permissions } from './admin-schemas.js'

export const hasPermissionAdminRoutes =
  (ctx: AdminRouteContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const guard = adminGuard(ctx)
    app.post(
      '/admin/has-permission',
      {
        schema: {
          summary: 'Whether the caller (or, for a server key, a user or role) holds permissions',
          tags: ['Admin'],
          body: body({
            userId: Type.Optional(Type.String({ maxLength: 256 })),
            role: Type.Optional(Type.String({ maxLength: 256 })),
            permission: Type.Optional(Permissions),
            permissions: Type.Optional(Permissions),
          }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'USER_NOT_FOUND'),
            200: Type.Object({ error: Type.Null(), success: Type.Boolean() }),
          },
        },
      },
      async (request, reply) => {
        const { userId, role, permission, permissions } = request.body
        // better-auth's body schema takes exactly one of the two: none, or both, is an invalid body
        // (400 VALIDATION_ERROR, in its validator's words), refused before the session is looked at.
        const asked = permissions ?? permission
        if (!asked || (permissions && permission))
          throw new DomainError('VALIDATION_ERROR', 400, '[body] Invalid input')
        const caller = await guard.callerOf(request, reply)
        if (caller.kind === 'user') return { error: null, success: callerMay(caller, asked) }
        if (role !== undefined) return { error: null, success: hasAdminPermission(role, asked) }
        const user = userId === undefined ? undefined : await ctx.lookups.users.byId(userId)
        if (!user) throw AUTH_ERRORS.error('USER_NOT_FOUND')
        const policy = { adminUserIds: ctx.config.admin.adminUserIds }
        return { error: null, success: userMay(user, asked, policy) }
      },
    )
  }
