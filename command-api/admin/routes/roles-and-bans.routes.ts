/// A user's standing: set-role, ban-user and unban-user, with better-auth 1.7.5's bodies and codes.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { adminCallerOf, adminPermission } from '../../../http/guards/admin-permission.js'
import { userJson } from '../../../http/presenters/presenters.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { banUserByAdmin, checkedRoles, setRoleByAdmin, unbanUserByAdmin } from '../manage-users.js'
import { ADMIN_ERRORS, type AdminRouteContext, body, RoleValue, UserAnswer, UserId } from './admin-schemas.js'

export const standingAdminRoutes =
  (ctx: AdminRouteContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/admin/set-role',
      {
        config: adminPermission({ user: ['set-role'] }, 'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE'),
        schema: {
          summary: 'Set the role(s) of a user',
          tags: ['Admin'],
          body: body({ userId: UserId, role: RoleValue }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE',
              'YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE',
              'INVALID_ROLE_TYPE',
              'USER_NOT_FOUND',
            ),
            200: UserAnswer,
          },
        },
      },
      async (request) => {
        const caller = adminCallerOf(request)
        const role = checkedRoles(request.body.role)
        const user = await setRoleByAdmin(ctx, originOf(request), caller.actor, {
          userId: request.body.userId,
          role,
        })
        return { user: userJson(user) }
      },
    )

    app.post(
      '/admin/ban-user',
      {
        config: adminPermission({ user: ['ban'] }, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS'),
        schema: {
          summary: 'Ban a user: their sessions end at once and no sign-in works until the ban ends',
          tags: ['Admin'],
          body: body({
            userId: UserId,
            banReason: Type.Optional(Type.String({ maxLength: 1024 })),
            // As better-auth: 0 is as if left out; below 0, a ban already over (it lifts at the next sign-in).
            banExpiresIn: Type.Optional(
              Type.Number({ minimum: -100 * 365 * 86_400, maximum: 100 * 365 * 86_400 }),
            ),
          }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS',
              'YOU_CANNOT_BAN_YOURSELF',
              'USER_NOT_FOUND',
            ),
            200: UserAnswer,
          },
        },
      },
      async (request) => {
        const caller = adminCallerOf(request)
        const { userId, banReason, banExpiresIn } = request.body
        const user = await banUserByAdmin(ctx, originOf(request), caller.actor, {
          userId,
          banReason: banReason ?? null,
          banExpiresIn: banExpiresIn ?? null,
        })
        return { user: userJson(user) }
      },
    )

    app.post(
      '/admin/unban-user',
      {
        config: adminPermission({ user: ['ban'] }, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS'),
        schema: {
          summary: 'Lift a ban',
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_BAN_USERS', 'USER_NOT_FOUND'),
            200: UserAnswer,
          },
        },
      },
      async (request) => {
        const caller = adminCallerOf(request)
        return {
          user: userJson(await unbanUserByAdmin(ctx, originOf(request), caller.actor, request.body.userId)),
        }
      },
    )
  }
