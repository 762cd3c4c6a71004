/// What the social routes share: the app they are added to, the state cookie, the first factor a
/// provider vouches for, and the caller of the token routes (a session, or a server key naming a user).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AUTH_ERRORS } from '../../../domain/errors.js'
import type { Actor } from '../../../domain/shared/metadata.js'
import type { ServerApiPort } from '../../../http/context.js'
import { serverActor } from '../../../http/guards/server-key.js'
import { sessionGuards } from '../../../http/sessions/require-session.js'
import type { CommandContext } from '../../context.js'
import type { FirstFactorPassed } from '../../two-factor/gated-sign-in.js'
import { stateCookieName } from '../oauth-state.js'
import type { SocialSignInResult } from '../social-sign-in.js'

export type SocialApp = Parameters<FastifyPluginAsyncTypebox>[0]
export type SocialContext = CommandContext & ServerApiPort

export type SocialKit = ReturnType<typeof socialKit>

export const socialKit = (ctx: SocialContext) => {
  const guards = sessionGuards(ctx)
  const settings = ctx.sessions.cookieSettings
  const stateCookie = stateCookieName(settings.secure)

  const setStateCookie = (reply: FastifyReply, cookie: { name: string; value: string }) =>
    reply.setCookie(cookie.name, cookie.value, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: settings.secure,
      // better-auth's: five minutes, though the flow's record lives ten.
      maxAge: 300,
    })

  const clearStateCookie = (reply: FastifyReply) =>
    reply.clearCookie(stateCookie, { path: '/', secure: settings.secure, sameSite: 'lax', httpOnly: true })

  /** The session's user, or the `userId` a backend with a server key names. */
  const callerOf = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string | undefined,
  ): Promise<{ userId: string; actor: Actor }> => {
    const server = await ctx.serverApi.optionalServerKey(request, reply)
    if (server) {
      if (!userId) throw AUTH_ERRORS.error('USER_ID_OR_SESSION_REQUIRED')
      return { userId, actor: serverActor(server) }
    }
    const found = await guards.optionalSession(request)
    // A browser or client over HTTP needs a session; a userId alone is a server-side call.
    if (!found) throw AUTH_ERRORS.error('UNAUTHORIZED')
    return { userId: found.user.id, actor: { type: 'user', userId: found.user.id } }
  }

  return {
    ctx,
    requireSession: guards.requireSession,
    stateCookie,
    setStateCookie,
    clearStateCookie,
    callerOf,
  }
}

/** A provider vouched for the person: their first factor, which the second-step gate follows. */
export const socialFirstFactor = ({ user }: SocialSignInResult): FirstFactorPassed => ({
  user,
  rememberMe: true,
  factor: 'social',
})

export const iso = (date: Date | undefined) => date?.toISOString()
