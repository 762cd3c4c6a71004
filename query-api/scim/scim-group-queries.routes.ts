/// SCIM's Group reading routes: a connection's own Groups, one or a list with `filter`
/// (`displayName eq`, `externalId eq`, `id eq`), `startIndex` and `count`. Each needs
/// `scim.groups.read`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import { scimGuard, scimPrincipalOf } from '../../http/scim/scim-auth.js'
import { ScimGroupListSchema, ScimGroupSchema, scimGroupJson } from '../../http/scim/scim-group-presenter.js'
import { SCIM_BASE, ScimError, scimErrorResponses, speakScim } from '../../http/scim/scim-http.js'
import { SCIM_LIST_RESPONSE_SCHEMA } from '../../http/scim/scim-presenter.js'
import type { Config } from '../../infra/config/config.js'
import type { Database } from '../../projections/database.js'
import {
  findScimGroup,
  listScimGroups,
  scimGroupMembers,
} from '../../projections/scim/scim-groups.repository.js'
import { parseScimGroupFilter, parseScimPaging, ScimListQuery } from './scim-filter.js'

const TAGS = ['SCIM']

export const scimGroupQueryRoutes =
  (ctx: { db: Kysely<Database>; config: Config; clock: () => Date }): FastifyPluginAsyncTypebox =>
  async (app) => {
    speakScim(app)
    const { baseUrl, basePath } = ctx.config
    const guard = scimGuard(ctx)

    app.get(
      `${SCIM_BASE}/Groups`,
      {
        preHandler: guard,
        schema: {
          summary: "List the connection's SCIM groups (filter, startIndex, count)",
          tags: TAGS,
          querystring: ScimListQuery,
          response: { 200: ScimGroupListSchema, ...scimErrorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { connectionId } = scimPrincipalOf(request)
        const filters = parseScimGroupFilter(request.query.filter)
        const paging = parseScimPaging(request.query)
        const { total, rows } = await listScimGroups(ctx.db, connectionId, filters, paging)
        const members = await scimGroupMembers(
          ctx.db,
          rows.map((row) => row.group_id),
        )
        return {
          schemas: [SCIM_LIST_RESPONSE_SCHEMA],
          totalResults: total,
          startIndex: paging.startIndex,
          itemsPerPage: rows.length,
          Resources: rows.map((row) => scimGroupJson(row, members, baseUrl, basePath)),
        }
      },
    )

    app.get(
      `${SCIM_BASE}/Groups/:groupId`,
      {
        preHandler: guard,
        schema: {
          summary: 'Get a SCIM group of the connection',
          tags: TAGS,
          params: Type.Object({ groupId: Type.String({ minLength: 1, maxLength: 256 }) }),
          response: { 200: ScimGroupSchema, ...scimErrorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const { connectionId } = scimPrincipalOf(request)
        const row = await findScimGroup(ctx.db, connectionId, request.params.groupId)
        if (!row) throw new ScimError(404, 'SCIM Group not found')
        return scimGroupJson(row, await scimGroupMembers(ctx.db, [row.group_id]), baseUrl, basePath)
      },
    )
  }
