/// POST /send-verification-email and GET /verify-email.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { StatusSchema } from '../../http/presenters/presenters.js'
import { sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorBody, errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { limitRecipient } from '../../infra/http/rate-limit.js'
import { withQuery } from '../../infra/http/redirect.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { followVerificationLink, sendVerificationEmail } from './email-verification.js'

const ERROR_CODES = {
  invalid_token: 'INVALID_TOKEN',
  token_expired: 'TOKEN_EXPIRED',
  user_not_found: 'USER_NOT_FOUND',
} as const
const ERROR_MESSAGES = {
  invalid_token: 'Invalid token',
  token_expired: 'Token expired',
  user_not_found: 'User not found',
} as const

export const emailVerificationRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { optionalSession } = sessionGuards(ctx)

    app.post(
      '/send-verification-email',
      {
        schema: {
          summary: 'Mail a verification link to your own unverified address',
          tags: ['Email verification'],
          body: Type.Object(
            {
              email: Type.String({ maxLength: 320 }),
              callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
            },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(...POST_ERRORS, 'INVALID_EMAIL', 'INVALID_CALLBACK_URL'),
            200: StatusSchema,
          },
        },
      },
      async (request, reply) => {
        await limitRecipient(reply, request.body.email)
        const session = await optionalSession(request)
        const record = await sendVerificationEmail(ctx, originOf(request), {
          email: request.body.email,
          callbackURL: request.body.callbackURL ?? null,
          session,
        })
        // Answer first: see sendVerificationEmail.
        await reply.send({ status: true })
        await record().catch((error: unknown) =>
          request.log.error({ err: error }, 'verification email request failed'),
        )
        return reply
      },
    )

    app.get(
      '/verify-email',
      {
        schema: {
          summary: 'Follow a verification link: redirect to callbackURL (with ?error= on failure)',
          tags: ['Email verification'],
          response: {
            200: Type.Object({ status: Type.Boolean(), user: Type.Null() }),
            ...errorResponses(...ANY_ROUTE_ERRORS, 'INVALID_CALLBACK_URL'),
            // Without a callbackURL the link's failure is answered here (with one, it redirects).
            401: errorBody('`INVALID_TOKEN`, `TOKEN_EXPIRED` or `USER_NOT_FOUND`'),
          },
          querystring: Type.Object({
            token: Type.String({ maxLength: 4096 }),
            callbackURL: Type.Optional(Type.String({ maxLength: 2048 })),
          }),
        },
      },
      async (request, reply) => {
        const { token, callbackURL } = request.query
        const outcome = await followVerificationLink(ctx, originOf(request), {
          token,
          callbackURL: callbackURL ?? null,
        })
        if (!outcome.ok) {
          if (callbackURL) return reply.redirect(withQuery(callbackURL, { error: outcome.error }))
          return reply
            .status(401)
            .send({ code: ERROR_CODES[outcome.error], message: ERROR_MESSAGES[outcome.error] })
        }
        if (outcome.signedIn) setSessionCookie(reply, outcome.signedIn, ctx.sessions.cookieSettings)
        if (callbackURL) return reply.redirect(callbackURL)
        return reply.send({ status: true, user: null })
      },
    )
  }
