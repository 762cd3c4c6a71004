/// GET /providers (Tessera's own: the configured providers for the portal's buttons) and
/// GET /list-accounts (better-auth's shape: credential and social accounts, scopes as a list).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import type { QueryContext } from '../context.js'
import { listAccountsOf } from './linked-accounts.repository.js'

const AccountSchema = Type.Object({
  id: Type.String(),
  providerId: Type.String(),
  accountId: Type.String(),
  userId: Type.String(),
  scopes: Type.Array(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})

export const socialQueryRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)
    const providers = Object.values(ctx.config.socialProviders).map(({ id, name }) => ({ id, name }))

    app.get(
      '/providers',
      {
        schema: {
          summary: 'The social providers offered for sign-in (id and display name)',
          tags: ['Social sign-in'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS),
            200: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
          },
        },
      },
      async () => providers,
    )

    app.get(
      '/list-accounts',
      {
        preHandler: requireSession,
        schema: {
          summary: "The signed-in user's accounts: password and linked social accounts",
          tags: ['Social sign-in'],
          response: {
            ...errorResponses(...ANY_ROUTE_ERRORS, 'UNAUTHORIZED'),
            200: Type.Array(AccountSchema),
          },
        },
      },
      async (request) => {
        const rows = await listAccountsOf(ctx.db, authOf(request).user.id)
        return rows.map((row) => ({
          id: row.id,
          providerId: row.provider_id,
          accountId: row.account_id,
          userId: row.user_id,
          scopes: row.scope
            ? row.scope
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean)
            : [],
          createdAt: new Date(row.created_at).toISOString(),
          updatedAt: new Date(row.updated_at).toISOString(),
        }))
      },
    )
  }
