/// GET /get-session and GET /list-sessions.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expireSession } from '../../command-api/sessions/end-session.js'
import { refreshSession } from '../../command-api/sessions/refresh-session.js'
import { clearSessionCookies, hasDontRememberCookie } from '../../infra/http/session-cookie.js'
import { listSessionsOfUser } from '../../projections/sessions/sessions.repository.js'
import { SessionSchema, sessionJson, UserSchema, userJson } from '../shared/presenters.js'
import { authOf, requireSession } from './require-session.js'

const BooleanFlag = Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')]))

// Other parameters (cache busters and the like) are ignored, as better-auth does.
const GetSessionQuery = Type.Object({ disableCookieCache: BooleanFlag, disableRefresh: BooleanFlag })

export const sessionQueryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.tessera

  app.get(
    '/get-session',
    {
      schema: {
        querystring: GetSessionQuery,
        response: {
          200: Type.Union([Type.Object({ session: SessionSchema, user: UserSchema }), Type.Null()]),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
      const token = ctx.sessions.tokenFrom(request)
      if (!token) return null
      const lookup = await ctx.sessions.lookup(token, ctx.clock())
      if (lookup.status !== 'valid') {
        if (lookup.status === 'expired') await expireSession(ctx, request, lookup.found.session)
        clearSessionCookies(reply, ctx.sessions.cookieSettings)
        return null
      }
      let { session } = lookup.found
      const mayRefresh =
        request.query.disableRefresh !== 'true' &&
        !hasDontRememberCookie(request, ctx.sessions.cookieSettings)
      if (mayRefresh) session = await refreshSession(ctx, request, reply, lookup.found)
      return { session: sessionJson(session, token), user: userJson(lookup.found.user) }
    },
  )

  app.get(
    '/list-sessions',
    { preHandler: requireSession, schema: { response: { 200: Type.Array(SessionSchema) } } },
    async (request) => {
      const { user } = authOf(request)
      const now = ctx.clock().getTime()
      const sessions = await listSessionsOfUser(ctx.db, user.id)
      return sessions.filter((s) => s.expires_at.getTime() > now).map((s) => sessionJson(s, s.id))
    },
  )
}
