/// GET /get-session and GET /list-sessions.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { ApiKeySession } from '../../http/ports/api-key-session-port.js'
import { SessionSchema, sessionJson, UserSchema, userJson } from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import type { SessionJson } from '../../http/sessions/session-list-cache.js'
import { exposeHeader } from '../../infra/http/expose-headers.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  clearSessionCookies,
  hasDontRememberCookie,
  setSessionCookie,
} from '../../infra/http/session-cookie.js'
import type { QueryContext } from '../context.js'

const BooleanFlag = Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')]))

// Other parameters (cache busters and the like) are ignored, as better-auth does.
const GetSessionQuery = Type.Object({ disableCookieCache: BooleanFlag, disableRefresh: BooleanFlag })

export const sessionQueryRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const serializedLists = new WeakMap<SessionJson[], string>()

    app.get(
      '/get-session',
      {
        schema: {
          summary: 'The current session and its user, or null',
          tags: ['Sessions'],
          querystring: GetSessionQuery,
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS),
            200: Type.Union([Type.Object({ session: SessionSchema, user: UserSchema }), Type.Null()]),
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
        const token = ctx.sessions.tokenFrom(request)
        if (!token)
          return ctx.apiKeySessions ? apiKeySessionAnswer(await ctx.apiKeySessions.sessionFor(request)) : null
        const now = ctx.clock()
        const lookup = await ctx.sessions.lookup(token, now)
        if (lookup.status !== 'valid') {
          if (lookup.status === 'expired')
            await ctx.sessionUpkeep.expire(lookup.found.session.id, originOf(request))
          clearSessionCookies(reply, ctx.sessions.cookieSettings)
          return null
        }
        ctx.sessions.used(lookup.found, now)
        let { session } = lookup.found
        const mayRefresh =
          request.query.disableRefresh !== 'true' &&
          !hasDontRememberCookie(request, ctx.sessions.cookieSettings)
        const refreshed = mayRefresh ? await ctx.sessionUpkeep.refresh(lookup.found, originOf(request)) : null
        if (refreshed) {
          session = refreshed
          setSessionCookie(reply, { token, rememberMe: true }, ctx.sessions.cookieSettings)
        }
        const user = userJson(lookup.found.user)
        // As better-auth's jwt plugin: every answer with a session carries a JWT for its user.
        if (ctx.jwt) {
          reply.header('set-auth-jwt', await ctx.jwt.tokenFor(user))
          exposeHeader(reply, 'set-auth-jwt')
        }
        return { session: sessionJson(session, token), user }
      },
    )

    app.get(
      '/list-sessions',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Your live sessions',
          tags: ['Sessions'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'),
            200: Type.Array(SessionSchema),
          },
        },
      },
      // As better-auth's admin plugin: a support agent's impersonation is not one of the person's
      // devices. "Last active" is the later of the session's own change and its last recorded use.
      async (request, reply) => {
        const sessions = await ctx.sessions.sessionsOf(authOf(request).user.id, ctx.clock())
        // An answer the lister gave before (list-sessions.ts) is sent as serialized then: with
        // twenty sessions, building and serializing it took two fifths of the request's time.
        let body = serializedLists.get(sessions)
        if (body === undefined) {
          body = reply.serialize(sessions) as string
          serializedLists.set(sessions, body)
        }
        const serialized = body
        reply.type('application/json; charset=utf-8').serializer(() => serialized)
        return sessions
      },
    )
  }

/** A session from an API key (apiKey.enableSessionForAPIKeys): answered, never refreshed or cookied. */
const apiKeySessionAnswer = (found: ApiKeySession | null) =>
  found ? { session: sessionJson(found.session, found.token), user: userJson(found.user) } : null
