/// Impersonation: impersonate-user opens a session as the user and keeps the operator's own in the
/// `admin_session` cookie (http/cookies/impersonation-cookie.ts); stop-impersonating brings it back.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import { impersonationCookie } from '../../../http/cookies/impersonation-cookie.js'
import { adminCallerOf, adminPermission } from '../../../http/guards/admin-permission.js'
import { SessionSchema, sessionJson, UserSchema, userJson } from '../../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../../http/sessions/require-session.js'
import { errorResponses } from '../../../infra/http/openapi.js'
import { originOf } from '../../../infra/http/request-metadata.js'
import {
  clearCookie,
  clearSessionCookies,
  cookieNames,
  hasDontRememberCookie,
  setSessionCookie,
} from '../../../infra/http/session-cookie.js'
import { impersonateUser, stopImpersonating } from '../impersonation.js'
import { ADMIN_ERRORS, type AdminRouteContext, body, UserId } from './admin-schemas.js'

export const impersonationAdminRoutes =
  (ctx: AdminRouteContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const settings = ctx.sessions.cookieSettings
    app.post(
      '/admin/impersonate-user',
      {
        config: adminPermission({ user: ['impersonate'] }, 'YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS'),
        schema: {
          summary: 'Act as a user for up to an hour',
          description:
            "Opens a session as the user, marked `impersonatedBy`; the operator's own session waits in the `admin_session` cookie until stop-impersonating.",
          tags: ['Admin'],
          body: body({ userId: UserId }),
          response: {
            ...errorResponses(
              ...ADMIN_ERRORS,
              'YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS',
              'YOU_CANNOT_IMPERSONATE_ADMINS',
              'USER_NOT_FOUND',
              'BANNED_USER',
            ),
            200: Type.Object({ session: SessionSchema, user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const caller = adminCallerOf(request)
        // Only a signed-in operator has a session to come back to.
        if (caller.kind !== 'user') throw AUTH_ERRORS.error('YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS')
        const operator = caller.session
        const dontRemember = hasDontRememberCookie(request, settings)
        const { adminRoles, adminUserIds, allowImpersonatingAdmins, impersonationSessionDuration } =
          ctx.config.admin
        const { session, user } = await impersonateUser(
          ctx,
          originOf(request),
          operator,
          request.body.userId,
          {
            adminRoles,
            adminUserIds,
            allowImpersonatingAdmins,
            lifetimeSeconds: impersonationSessionDuration,
          },
        )
        const row = await ctx.lookups.sessions.byId(session.sessionId)
        if (!row) throw AUTH_ERRORS.error('FAILED_TO_CREATE_SESSION')
        clearSessionCookies(reply, settings)
        impersonationCookie.write(reply, settings, operator.token, dontRemember)
        setSessionCookie(reply, session, settings)
        return { session: sessionJson(row, session.token), user: userJson(user) }
      },
    )

    app.post(
      '/admin/stop-impersonating',
      {
        preHandler: requireSession,
        schema: {
          summary: "Stop impersonating: back to the operator's own session",
          tags: ['Admin'],
          response: {
            ...errorResponses(...ADMIN_ERRORS, 'NOT_IMPERSONATING', 'ADMIN_SESSION_NOT_FOUND'),
            200: Type.Object({ session: SessionSchema, user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const { operatorToken, dontRemember } = impersonationCookie.read(request, settings)
        const back = await stopImpersonating(ctx, originOf(request), authOf(request), operatorToken)
        const rememberMe = !dontRemember
        setSessionCookie(reply, { token: back.token, rememberMe }, settings)
        if (rememberMe) clearCookie(reply, cookieNames(settings.secure).dontRemember, settings)
        impersonationCookie.clear(reply, settings)
        return { session: sessionJson(back.session, back.token), user: userJson(back.user) }
      },
    )
  }
