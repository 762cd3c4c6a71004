/// The admin plugin's POST routes (better-auth 1.7.5's paths, bodies, answers and codes), one file
/// per resource in routes/: users (create, update, remove, set-user-password), their standing
/// (set-role, ban, unban), their sessions (list, revoke one or all), impersonation
/// (impersonate-user, stop-impersonating) and has-permission. Access: each route names its
/// permission in its config and one hook checks it (http/guards/admin-permission.ts, on
/// http/guards/admin-caller.ts). Every change is an event with the operator as actor.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { adminGuard } from '../../http/guards/admin-caller.js'
import { adminPermissionHook } from '../../http/guards/admin-permission.js'
import type { AdminRouteContext } from './routes/admin-schemas.js'
import { hasPermissionAdminRoutes } from './routes/has-permission.routes.js'
import { impersonationAdminRoutes } from './routes/impersonation.routes.js'
import { standingAdminRoutes } from './routes/roles-and-bans.routes.js'
import { sessionsAdminRoutes } from './routes/user-sessions.routes.js'
import { usersAdminRoutes } from './routes/users.routes.js'

export const adminRoutes =
  (ctx: AdminRouteContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    adminPermissionHook(app, adminGuard(ctx))
    await app.register(usersAdminRoutes(ctx))
    await app.register(standingAdminRoutes(ctx))
    await app.register(sessionsAdminRoutes(ctx))
    await app.register(impersonationAdminRoutes(ctx))
    await app.register(hasPermissionAdminRoutes(ctx))
  }
