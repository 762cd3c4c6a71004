/// A user's sessions, for operators: list them, end one, end all.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { adminCallerOf, adminPermission } from '../../../http/guards/admin-permission.js'
import { SessionSchema, sessionJson } from '../../../http/presenters/presenters.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import { revokeUserSessionByAdmin, revokeUserSessionsByAdmin } from '../manage-sessions.js'
import { ADMIN_ERRORS, type AdminRouteContext, body, SuccessSchema, UserId } from './admin-schemas.js'

export const sessionsAdminRoutes =
  (ctx: AdminRouteContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/admin/list-user-sessions',
      {
        config: adminPermission({ session: ['list'] }, 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS'),
        schema: {
          summary: "List a user's sessions",
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS'),
            200: Type.Object({ sessions: Type.Array(SessionSchema) }),
          },
        },
      },
      async (request) => {
        const sessions = await ctx.lookups.sessions.ofUser(request.body.userId)
        const now = ctx.clock().getTime()
        // `token` is the session's id: the handle revoke-user-session takes (raw tokens are not kept).
        return {
          sessions: sessions
            .filter((session) => session.expires_at.getTime() > now)
            .map((session) => sessionJson(session, session.id)),
        }
      },
    )

    app.post(
      '/admin/revoke-user-session',
      {
        config: adminPermission({ session: ['revoke'] }, 'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'),
        schema: {
          summary: "End one of a user's sessions",
          description:
            '`sessionToken`: the `token` list-user-sessions gives (the session id), or a raw token.',
          tags: ['Admin'],
          body: body({ sessionToken: Type.String({ minLength: 1, maxLength: 256 }) }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'),
            200: SuccessSchema,
          },
        },
      },
      async (request) => {
        const caller = adminCallerOf(request)
        await revokeUserSessionByAdmin(ctx, originOf(request), caller.actor, request.body.sessionToken)
        return { success: true }
      },
    )

    app.post(
      '/admin/revoke-user-sessions',
      {
        config: adminPermission({ session: ['revoke'] }, 'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'),
        schema: {
          summary: 'End every session of a user',
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS'),
            200: SuccessSchema,
          },
        },
      },
      async (request) => {
        const caller = adminCallerOf(request)
        await revokeUserSessionsByAdmin(ctx, originOf(request), caller.actor, request.body.userId)
        return { success: true }
      },
    )
  }
