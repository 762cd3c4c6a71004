/// GET /api-key/list and GET /api-key/get?id: the signed-in user's keys, or with `organizationId`
/// an organization's (for members whose role may read them), never their hashes and never the
/// whole key. Someone else's key answers 404 KEY_NOT_FOUND, like an unknown id.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { assertMayManageOrganizationKeys } from '../../http/guards/organization-key-access.js'
import { ApiKeySchema, apiKeyJson } from '../../http/presenters/api-key-json.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import { findApiKeyById, listApiKeys } from '../../projections/api-keys/api-keys.repository.js'
import type { QueryContext } from '../context.js'

const ListQuery = Type.Object(
  {
    configId: Type.Optional(Type.Literal('default')),
    organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
    sortBy: Type.Optional(
      Type.Union(['createdAt', 'updatedAt', 'name', 'expiresAt'].map((f) => Type.Literal(f))),
    ),
    sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  },
  { additionalProperties: false },
)

const GetQuery = Type.Object(
  { id: Type.String({ maxLength: 256 }), configId: Type.Optional(Type.Literal('default')) },
  { additionalProperties: false },
)

export const apiKeyQueryRoutes =
  (ctx: QueryContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { requireSession } = sessionGuards(ctx)

    app.get(
      '/api-key/list',
      {
        preHandler: requireSession,
        schema: {
          summary: "List your API keys, or an organization's (`organizationId`)",
          tags: ['API keys'],
          querystring: ListQuery,
          response: {
            ...errorResponses(
              ...ANY_ROUTE_ERRORS,
              'UNAUTHORIZED',
              'USER_NOT_MEMBER_OF_ORGANIZATION',
              'INSUFFICIENT_API_KEY_PERMISSIONS',
            ),
            200: Type.Object({
              apiKeys: Type.Array(ApiKeySchema),
              total: Type.Integer(),
              limit: Type.Optional(Type.Integer()),
              offset: Type.Optional(Type.Integer()),
            }),
          },
        },
      },
      async (request) => {
        const { user } = authOf(request)
        const { organizationId, limit, offset, sortBy, sortDirection } = request.query
        if (organizationId !== undefined)
          await assertMayManageOrganizationKeys(ctx, user.id, organizationId, 'read')
        const owner = organizationId === undefined ? { userId: user.id } : { organizationId }
        const { keys, total } = await listApiKeys(ctx.db, owner, {
          ...(limit === undefined ? {} : { limit }),
          ...(offset === undefined ? {} : { offset }),
          ...(sortBy === undefined ? {} : { sortBy: sortBy as 'createdAt' }),
          ...(sortDirection === undefined ? {} : { sortDirection }),
        })
        return { apiKeys: keys.map(apiKeyJson), total, limit, offset }
      },
    )

    app.get(
      '/api-key/get',
      {
        preHandler: requireSession,
        schema: {
          summary: 'One of your API keys',
          tags: ['API keys'],
          querystring: GetQuery,
          response: {
            ...errorResponses(
              ...ANY_ROUTE_ERRORS,
              'UNAUTHORIZED',
              'KEY_NOT_FOUND',
              'USER_NOT_MEMBER_OF_ORGANIZATION',
              'INSUFFICIENT_API_KEY_PERMISSIONS',
            ),
            200: ApiKeySchema,
          },
        },
      },
      async (request) => {
        const { user } = authOf(request)
        const row = await findApiKeyById(ctx.db, request.query.id)
        if (!row) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
        if (row.organization_id !== null)
          await assertMayManageOrganizationKeys(ctx, user.id, row.organization_id, 'read')
        else if (row.user_id !== user.id) throw AUTH_ERRORS.error('KEY_NOT_FOUND')
        return apiKeyJson(row)
      },
    )
  }
