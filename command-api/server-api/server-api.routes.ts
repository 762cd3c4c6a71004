/// The server API's own routes (see http/guards/server-key.ts): operations better-auth
/// offers only as server-side calls, here reached over HTTP with a server key instead of a session.
/// POST /set-password gives a password to a user who has none (a social-only account).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import {
  SERVER_API_ERRORS,
  SERVER_API_SECURITY,
  type ServerKeyGuards,
  serverActor,
  serverCallerOf,
} from '../../http/guards/server-key.js'
import { StatusSchema } from '../../http/presenters/presenters.js'
import { errorResponses } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setPassword } from '../account/credentials.js'
import type { CommandContext } from '../context.js'

const SetPasswordBody = Type.Object(
  {
    userId: Type.String({ minLength: 1, maxLength: 256 }),
    newPassword: Type.String({ maxLength: 4096 }),
  },
  { additionalProperties: false },
)

export const serverApiRoutes =
  (ctx: CommandContext & { serverApi: ServerKeyGuards }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/set-password',
      {
        onRequest: ctx.serverApi.requireServerKey,
        schema: {
          summary: 'Give a password to a user who has none (server API)',
          description:
            "better-auth's server-only `setPassword`, for the user named in the body. Refused to browser sessions.",
          tags: ['Server API'],
          security: SERVER_API_SECURITY,
          body: SetPasswordBody,
          response: {
            ...errorResponses(
              ...SERVER_API_ERRORS,
              'PASSWORD_TOO_SHORT',
              'PASSWORD_TOO_LONG',
              'PASSWORD_ALREADY_SET',
              'USER_NOT_FOUND',
            ),
            200: StatusSchema,
          },
        },
      },
      async (request) => {
        const actor = serverActor(serverCallerOf(request))
        await setPassword(ctx, originOf(request), request.body, actor)
        return { status: true }
      },
    )
  }
