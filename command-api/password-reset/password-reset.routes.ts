/// POST /request-password-reset (and its older name /forget-password), GET /reset-password/:token,
/// POST /reset-password.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { StatusSchema } from '../../http/presenters/presenters.js'
import { ANY_ROUTE_ERRORS, errorResponses, POST_ERRORS } from '../../infra/http/openapi.js'
import { limitRecipient } from '../../infra/http/rate-limit.js'
import { withQuery } from '../../infra/http/redirect.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import {
  findLiveResetToken,
  RESET_REQUESTED_MESSAGE,
  requestPasswordReset,
  resetPassword,
} from './password-reset.js'

const RequestBody = Type.Object(
  { email: Type.String({ maxLength: 320 }), redirectTo: Type.Optional(Type.String({ maxLength: 2048 })) },
  { additionalProperties: false },
)

export const passwordResetRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const path of ['/request-password-reset', '/forget-password'])
      app.post(
        path,
        {
          schema: {
            summary: 'Ask for a password reset link (same answer whether or not the address exists)',
            tags: ['Password reset'],
            body: RequestBody,
            response: {
              ...errorResponses(...POST_ERRORS, 'INVALID_REDIRECT_URL'),
              200: Type.Object({ status: Type.Boolean(), message: Type.String() }),
            },
          },
        },
        async (request, reply) => {
          await limitRecipient(reply, request.body.email)
          const record = await requestPasswordReset(ctx, originOf(request), {
            email: request.body.email,
            redirectTo: request.body.redirectTo ?? null,
          })
          await reply.send({ status: true, message: RESET_REQUESTED_MESSAGE })
          await record().catch((error: unknown) =>
            request.log.error({ err: error }, 'password reset request failed'),
          )
          return reply
        },
      )

    app.get(
      '/reset-password/:token',
      {
        schema: {
          summary: 'Follow a reset link: redirect to callbackURL with ?token= or ?error=INVALID_TOKEN',
          tags: ['Password reset'],
          response: { ...errorResponses(...ANY_ROUTE_ERRORS, 'INVALID_CALLBACK_URL') },
          params: Type.Object({ token: Type.String({ maxLength: 256 }) }),
          querystring: Type.Object({ callbackURL: Type.Optional(Type.String({ maxLength: 2048 })) }),
        },
      },
      async (request, reply) => {
        const { token } = request.params
        const callbackURL = request.query.callbackURL ?? '/'
        const live = await findLiveResetToken(ctx, originOf(request), token)
        return reply.redirect(withQuery(callbackURL, live ? { token } : { error: 'INVALID_TOKEN' }))
      },
    )

    app.post(
      '/reset-password',
      {
        schema: {
          summary: 'Set a new password with a reset token',
          tags: ['Password reset'],
          body: Type.Object(
            {
              newPassword: Type.String({ maxLength: 4096 }),
              token: Type.Optional(Type.String({ maxLength: 256 })),
            },
            { additionalProperties: false },
          ),
          querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 256 })) }),
          response: {
            ...errorResponses(...POST_ERRORS, 'INVALID_TOKEN', 'PASSWORD_TOO_SHORT', 'PASSWORD_TOO_LONG'),
            200: StatusSchema,
          },
        },
      },
      async (request) => {
        const token = request.body.token ?? request.query.token ?? ''
        await resetPassword(ctx, originOf(request), { token, newPassword: request.body.newPassword })
        return { status: true }
      },
    )
  }
