/// POST /multi-session/set-active and POST /multi-session/revoke: switching between the accounts
/// signed in on this device, and signing one of them out. The device's per-session cookie for the
/// token is what authorises both; a token the device holds no cookie for is an invalid one.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import {
  SessionSchema,
  StatusSchema,
  sessionJson,
  UserSchema,
  userJson,
} from '../../http/presenters/presenters.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import type { FoundSession } from '../../http/sessions/resolve-session.js'
import { errorResponses, POST_ERRORS, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  clearCookie,
  clearSessionCookies,
  cookieNames,
  type DeviceSessionCookie,
  deviceSessionCookieName,
  readDeviceSessionCookies,
  setSessionCookie,
} from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { revokeDeviceSession } from './device-sessions.js'

const SessionTokenBody = Type.Object(
  { sessionToken: Type.String({ maxLength: 256 }) },
  { additionalProperties: false },
)

export const multiSessionRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const settings = ctx.sessions.cookieSettings

    /** The device's cookie for this token (named after it, lowercased, as better-auth names it). */
    const heldCookie = (request: FastifyRequest, sessionToken: string) => {
      const held = readDeviceSessionCookies(request, settings)
      const name = deviceSessionCookieName(settings.secure, sessionToken)
      const cookie = held.find((candidate) => candidate.name === name)
      if (!cookie) throw AUTH_ERRORS.error('INVALID_SESSION_TOKEN')
      return { held, cookie }
    }

    const activate = (reply: FastifyReply, { token, session }: FoundSession) => {
      setSessionCookie(reply, { token, rememberMe: session.remember_me }, settings)
      // A remembered session must not inherit the previous one's "don't remember me".
      if (session.remember_me) clearCookie(reply, cookieNames(settings.secure).dontRemember, settings)
    }

    const dropAll = (reply: FastifyReply, cookies: readonly DeviceSessionCookie[]) => {
      for (const cookie of cookies) clearCookie(reply, cookie.name, settings)
    }

    app.post(
      '/multi-session/set-active',
      {
        schema: {
          summary: 'Make one of the sessions signed in on this device the active one',
          tags: ['Multi-session'],
          body: SessionTokenBody,
          response: {
            ...errorResponses(...POST_ERRORS, 'INVALID_SESSION_TOKEN'),
            200: Type.Object({ session: SessionSchema, user: UserSchema }),
          },
        },
      },
      async (request, reply) => {
        const { cookie } = heldCookie(request, request.body.sessionToken)
        const lookup = await ctx.sessions.lookup(cookie.token, ctx.clock())
        if (lookup.status !== 'valid') {
          clearCookie(reply, cookie.name, settings)
          throw AUTH_ERRORS.error('INVALID_SESSION_TOKEN')
        }
        activate(reply, lookup.found)
        return { session: sessionJson(lookup.found.session, cookie.token), user: userJson(lookup.found.user) }
      },
    )

    app.post(
      '/multi-session/revoke',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Sign one of the accounts on this device out (its session ends everywhere)',
          tags: ['Multi-session'],
          body: SessionTokenBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'INVALID_SESSION_TOKEN'),
            200: StatusSchema,
          },
        },
      },
      async (request, reply) => {
        const { held, cookie } = heldCookie(request, request.body.sessionToken)
        // Revoked or found invalid, the cookie goes either way.
        clearCookie(reply, cookie.name, settings)
        const { active, dropped } = await revokeDeviceSession(ctx, originOf(request), {
          revoked: cookie,
          activeToken: authOf(request).token,
          held,
        })
        dropAll(reply, dropped)
        if (active === null) clearSessionCookies(reply, settings)
        else if (active !== 'unchanged') activate(reply, active)
        return { status: true }
      },
    )
  }
