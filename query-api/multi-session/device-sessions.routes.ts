/// GET /multi-session/list-device-sessions: every account signed in on this device, each with
/// its session (the raw token included: the device holds it), as better-auth's multi-session
/// plugin lists them. Cookies of sessions that are no longer valid are removed.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { SessionSchema, sessionJson, UserSchema, userJson } from '../../http/presenters/presenters.js'
import { onePerAccount, sortDeviceSessions } from '../../http/sessions/device-sessions.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { clearCookie, readDeviceSessionCookies } from '../../infra/http/session-cookie.js'
import type { QueryContext } from '../context.js'

export const deviceSessionQueryRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/multi-session/list-device-sessions',
      {
        schema: {
          summary: 'The accounts signed in on this device, each with its session',
          tags: ['Multi-session'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS),
            200: Type.Array(Type.Object({ session: SessionSchema, user: UserSchema })),
          },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store')
        const settings = ctx.sessions.cookieSettings
        const held = readDeviceSessionCookies(request, settings)
        const { valid, stale } = await sortDeviceSessions(ctx.sessions, held, ctx.clock())
        for (const cookie of stale) clearCookie(reply, cookie.name, settings)
        return onePerAccount(valid).map(({ session, user, token }) => ({
          session: sessionJson(session, token),
          user: userJson(user),
        }))
      },
    )
  }
