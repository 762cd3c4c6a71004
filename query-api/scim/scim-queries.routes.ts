/// SCIM's reading routes under the plugin's base path (`/scim/v2`): discovery without a token, and
/// a connection's own Users (get one, list with `filter`, `startIndex`, `count`) with one.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import { authenticateScim, scimGuard, scimGuardAlone, scimPrincipalOf } from '../../http/scim/scim-auth.js'
import { SCIM_GROUP_SCHEMA } from '../../http/scim/scim-group-presenter.js'
import { SCIM_BASE, ScimError, scimErrorResponses, speakScim } from '../../http/scim/scim-http.js'
import {
  resourceUrl,
  SCIM_LIST_RESPONSE_SCHEMA,
  SCIM_USER_SCHEMA,
  ScimUserListSchema,
  ScimUserSchema,
  scimUserJson,
} from '../../http/scim/scim-presenter.js'
import type { Config } from '../../infra/config/config.js'
import type { Database } from '../../projections/database.js'
import { listScimUsersAs } from '../../projections/scim/scim-principal-list.js'
import { findScimUser, listScimUsers } from '../../projections/scim/scim-users.repository.js'
import {
  groupResourceType,
  groupSchema,
  listOf,
  serviceProviderConfig,
  userResourceType,
  userSchema,
} from './scim-discovery.js'
import { parseScimFilter, parseScimPaging, ScimListQuery } from './scim-filter.js'

const TAGS = ['SCIM']
const Anything = Type.Object({}, { additionalProperties: true })

type Context = { db: Kysely<Database>; config: Config; clock: () => Date }

/** The list's filter and paging; a bad one is answered after the credential, as behind a guard. */
const parsedOrRefused = async (
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  query: { filter?: string; startIndex?: string; count?: string },
) => {
  try {
    return { filters: parseScimFilter(query.filter), paging: parseScimPaging(query) }
  } catch (error) {
    await scimGuardAlone(ctx, request, reply)
    throw error
  }
}

export const scimQueryRoutes =
  (ctx: Context): FastifyPluginAsyncTypebox =>
  async (app) => {
    speakScim(app)
    const { baseUrl, basePath } = ctx.config
    const url = (path: string) => resourceUrl(baseUrl, basePath, path)
    const guard = scimGuard(ctx)
    const discovery = (summary: string) => ({
      schema: { summary, tags: TAGS, response: { 200: Anything, ...scimErrorResponses(404) } },
    })

    app.get(
      `${SCIM_BASE}/ServiceProviderConfig`,
      discovery('SCIM service provider configuration'),
      async () => serviceProviderConfig(url('/ServiceProviderConfig')),
    )
    app.get(`${SCIM_BASE}/Schemas`, discovery('List SCIM schemas'), async () =>
      listOf([
        userSchema(url(`/Schemas/${SCIM_USER_SCHEMA}`)),
        groupSchema(url(`/Schemas/${SCIM_GROUP_SCHEMA}`)),
      ]),
    )
    app.get<{ Params: { schemaId: string } }>(
      `${SCIM_BASE}/Schemas/:schemaId`,
      discovery('Get a SCIM schema'),
      async (request) => {
        const { schemaId } = request.params
        if (schemaId === SCIM_GROUP_SCHEMA) return groupSchema(url(`/Schemas/${SCIM_GROUP_SCHEMA}`))
        if (schemaId !== SCIM_USER_SCHEMA) throw new ScimError(404, 'Schema not found')
        return userSchema(url(`/Schemas/${SCIM_USER_SCHEMA}`))
      },
    )
    app.get(`${SCIM_BASE}/ResourceTypes`, discovery('List SCIM resource types'), async () =>
      listOf([userResourceType(url('/ResourceTypes/User')), groupResourceType(url('/ResourceTypes/Group'))]),
    )
    app.get<{ Params: { resourceTypeId: string } }>(
      `${SCIM_BASE}/ResourceTypes/:resourceTypeId`,
      discovery('Get a SCIM resource type'),
      async (request) => {
        if (request.params.resourceTypeId === 'Group') return groupResourceType(url('/ResourceTypes/Group'))
        if (request.params.resourceTypeId !== 'User') throw new ScimError(404, 'Resource type not found')
        return userResourceType(url('/ResourceTypes/User'))
      },
    )

    // The filtered list authenticates in its own statement (scim-principal-list.ts): no preHandler.
    app.get(
      `${SCIM_BASE}/Users`,
      {
        schema: {
          summary: "List the connection's SCIM users (filter, startIndex, count)",
          tags: TAGS,
          querystring: ScimListQuery,
          response: { 200: ScimUserListSchema, ...scimErrorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { filters, paging } = await parsedOrRefused(ctx, request, reply, request.query)
        const { principal, page } =
          filters.length > 0 && paging.count > 0
            ? await authenticateScim(ctx, request, reply, (lookup) =>
                listScimUsersAs(ctx.db, lookup, filters, paging),
              )
            : { ...(await scimGuardAlone(ctx, request, reply)), page: null }
        const { total, rows } = page ?? (await listScimUsers(ctx.db, principal.connectionId, filters, paging))
        return {
          schemas: [SCIM_LIST_RESPONSE_SCHEMA],
          totalResults: total,
          startIndex: paging.startIndex,
          itemsPerPage: rows.length,
          Resources: rows.map((row) => scimUserJson(row, baseUrl, basePath)),
        }
      },
    )

    app.get(
      `${SCIM_BASE}/Users/:userId`,
      {
        preHandler: guard,
        schema: {
          summary: 'Get a SCIM user of the connection',
          tags: TAGS,
          params: Type.Object({ userId: Type.String({ minLength: 1, maxLength: 256 }) }),
          response: { 200: ScimUserSchema, ...scimErrorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const row = await findScimUser(ctx.db, scimPrincipalOf(request).connectionId, request.params.userId)
        if (!row) throw new ScimError(404, 'User not found')
        return scimUserJson(row, baseUrl, basePath)
      },
    )
  }
