/// GET /passkey/list-user-passkeys: the signed-in user's passkeys, as better-auth's passkey plugin.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PasskeySchema, passkeyJson } from '../../http/presenters/passkey-json.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { listPasskeysOfUser } from '../../projections/passkeys/passkeys.repository.js'
import type { QueryContext } from '../context.js'

export const passkeyQueryRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    app.get(
      '/passkey/list-user-passkeys',
      {
        preHandler: requireSession,
        schema: {
          summary: 'List your passkeys',
          tags: ['Passkeys'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'),
            200: Type.Array(PasskeySchema),
          },
        },
      },
      async (request) => (await listPasskeysOfUser(ctx.db, authOf(request).user.id)).map(passkeyJson),
    )
  }
