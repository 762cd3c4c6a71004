/// How each live session was signed in (`amr`, domain/session/amr.ts), beside better-auth's session
/// lists (whose answers stay on its wire): GET /session-factors for the caller's own devices (the
/// portal's Security page) and GET /admin/session-factors?userId= for an operator who may list a
/// person's sessions (the console's person page). Tessera's own routes.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import { adminGuard, type ServerKeyCheck } from '../../http/guards/admin-caller.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import type { Database } from '../../projections/database.js'
import type { QueryContext } from '../context.js'

const FactorsSchema = Type.Array(
  Type.Object({
    id: Type.String(),
    /** Null for a session started before Tessera kept it. */
    amr: Type.Union([Type.Array(Type.String()), Type.Null()]),
  }),
)

const factorsOf = async (db: Kysely<Database>, userId: string, now: Date) =>
  (
    await db
      .selectFrom('sessions')
      .select(['id', 'amr'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .execute()
  ).map(({ id, amr }) => ({ id, amr: Array.isArray(amr) ? amr : null }))

export const sessionFactorRoutes =
  (ctx: QueryContext & { serverApi?: ServerKeyCheck }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const guard = adminGuard(ctx)
    const tags = ['Sessions']

    app.get(
      '/session-factors',
      {
        preHandler: requireSession,
        schema: {
          summary: 'How each of your sessions was signed in',
          tags,
          response: { ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'), 200: FactorsSchema },
        },
      },
      async (request) => factorsOf(ctx.db, authOf(request).user.id, ctx.clock()),
    )

    app.get(
      '/admin/session-factors',
      {
        schema: {
          summary: "How each of a person's sessions was signed in",
          tags: ['Admin'],
          querystring: Type.Object(
            { userId: Type.String({ maxLength: 256 }) },
            { additionalProperties: false },
          ),
          response: {
            ...errorResponses(
              ...ANY_ROUTE_ERRORS,
              'UNAUTHORIZED',
              'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS',
            ),
            200: FactorsSchema,
          },
        },
      },
      async (request, reply) => {
        await guard.authorize(
          request,
          reply,
          { session: ['list'] },
          'YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS',
        )
        return factorsOf(ctx.db, request.query.userId, ctx.clock())
      },
    )
  }
