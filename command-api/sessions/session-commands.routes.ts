/// POST /sign-out, /revoke-session, /revoke-sessions, /revoke-other-sessions.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { StatusSchema } from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { sha256Hex } from '../../infra/crypto/tokens.js'
import { errorResponses, POST_ERRORS, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  clearCookie,
  clearSessionCookies,
  readDeviceSessionCookies,
} from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { signOutDevice } from '../multi-session/device-sessions.js'
import { forgetTrustedDevices } from '../two-factor/manage-two-factor.js'
import { revokeSession } from './end-session.js'

// These routes take no parameters; clients send nothing, `{}` or `null`.
const EmptyBody = Type.Union([
  Type.Object({}, { additionalProperties: false }),
  Type.Null(),
  Type.Undefined(),
])

export const sessionCommandRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.post(
      '/sign-out',
      {
        schema: {
          summary: 'Sign out: end the current session and clear its cookies',
          tags: ['Sessions'],
          body: EmptyBody,
          response: {
            ...errorResponses(...POST_ERRORS),
            200: Type.Object({ success: Type.Boolean() }),
          },
        },
      },
      async (request, reply) => {
        const token = ctx.sessions.tokenFrom(request)
        const lookup = token ? await ctx.sessions.lookup(token, ctx.clock()) : null
        if (lookup && lookup.status !== 'none') {
          const { session } = lookup.found
          await revokeSession(ctx, originOf(request), {
            sessionId: session.id,
            requestedBy: session.user_id,
            reason: 'sign-out',
          })
        }
        // Every account signed in on this device signs out with it (multi-session).
        const held = readDeviceSessionCookies(request, ctx.sessions.cookieSettings)
        await signOutDevice(ctx, originOf(request), held)
        for (const cookie of held) clearCookie(reply, cookie.name, ctx.sessions.cookieSettings)
        clearSessionCookies(reply, ctx.sessions.cookieSettings)
        return { success: true }
      },
    )

    app.post(
      '/revoke-session',
      {
        preHandler: requireSession,
        schema: {
          summary: 'End one of your sessions (by token or the id list-sessions gives)',
          tags: ['Sessions'],
          body: Type.Object(
            { token: Type.String({ minLength: 1, maxLength: 256 }) },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS),
            200: StatusSchema,
          },
        },
      },
      async (request) => {
        const { user } = authOf(request)
        // Accepts a raw token, or the id that list-sessions hands out in its place.
        const { token } = request.body
        const target =
          (await ctx.lookups.sessions.byTokenHash(sha256Hex(token)))?.session ??
          (await ctx.lookups.sessions.byId(token))
        // Someone else's session (or none): nothing changes, and nothing tells the caller which.
        if (target && target.user_id === user.id)
          await revokeSession(ctx, originOf(request), {
            sessionId: target.id,
            requestedBy: user.id,
            reason: 'revoked',
          })
        return { status: true }
      },
    )

    app.post(
      '/revoke-sessions',
      {
        preHandler: requireSession,
        schema: {
          summary: 'End all of your sessions, this one included',
          tags: ['Sessions'],
          body: EmptyBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS),
            200: StatusSchema,
          },
        },
      },
      async (request) => {
        const { user } = authOf(request)
        for (const session of await ctx.lookups.sessions.ofUser(user.id))
          await revokeSession(ctx, originOf(request), {
            sessionId: session.id,
            requestedBy: user.id,
            reason: 'revoked-all',
          })
        // "Sign out everywhere" also ends every device trusted to skip the second step.
        await forgetTrustedDevices(ctx, originOf(request), user.id, 'sessions-revoked')
        return { status: true }
      },
    )

    app.post(
      '/revoke-other-sessions',
      {
        preHandler: requireSession,
        schema: {
          summary: 'End all of your sessions except this one',
          tags: ['Sessions'],
          body: EmptyBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS),
            200: StatusSchema,
          },
        },
      },
      async (request) => {
        const { user, session: current } = authOf(request)
        for (const session of await ctx.lookups.sessions.ofUser(user.id))
          if (session.id !== current.id)
            await revokeSession(ctx, originOf(request), {
              sessionId: session.id,
              requestedBy: user.id,
              reason: 'revoked-others',
            })
        return { status: true }
      },
    )
  }
