/// SCIM's Group writing routes under the plugin's base path: create (201 with Location), replace
/// (PUT), patch (members added and removed as Okta and Entra ID send them) and delete (204) a
/// Group of the calling connection. Each needs `scim.groups.write`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { scimGuard, scimPrincipalOf } from '../../http/scim/scim-auth.js'
import { ScimGroupSchema, scimGroupJson } from '../../http/scim/scim-group-presenter.js'
import { SCIM_BASE, scimErrorResponses, speakScim } from '../../http/scim/scim-http.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { type ScimGroupView, scimGroupMembers } from '../../projections/scim/scim-groups.repository.js'
import type { CommandContext } from '../context.js'
import { canonicalGroup, groupOperations, replacement, ScimGroupBody } from './scim-group-patch.js'
import { changeScimGroup, createScimGroup, deleteScimGroup } from './scim-groups.js'
import { ScimPatchBody } from './scim-patch.js'

const TAGS = ['SCIM']
const Params = Type.Object({ groupId: Type.String({ minLength: 1, maxLength: 256 }) })

export const scimGroupCommandRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    speakScim(app)
    const guard = scimGuard(ctx)
    const { baseUrl, basePath } = ctx.config
    const json = async (row: ScimGroupView) =>
      scimGroupJson(row, await scimGroupMembers(ctx.db, [row.group_id]), baseUrl, basePath)

    app.post(
      `${SCIM_BASE}/Groups`,
      {
        preHandler: guard,
        schema: {
          summary: "Create a SCIM group: a team of the connection's organization",
          tags: TAGS,
          body: ScimGroupBody,
          response: { 201: ScimGroupSchema, ...scimErrorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const principal = scimPrincipalOf(request)
        const row = await createScimGroup(ctx, originOf(request), principal, canonicalGroup(request.body))
        const body = await json(row)
        return reply.code(201).header('location', body.meta.location).send(body)
      },
    )

    app.put(
      `${SCIM_BASE}/Groups/:groupId`,
      {
        preHandler: guard,
        schema: {
          summary: 'Replace a SCIM group (name, externalId and every member)',
          tags: TAGS,
          params: Params,
          body: ScimGroupBody,
          response: { 200: ScimGroupSchema, ...scimErrorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const operations = replacement(canonicalGroup(request.body))
        const principal = scimPrincipalOf(request)
        return json(
          await changeScimGroup(ctx, originOf(request), principal, request.params.groupId, operations),
        )
      },
    )

    app.patch(
      `${SCIM_BASE}/Groups/:groupId`,
      {
        preHandler: guard,
        schema: {
          summary: 'Patch a SCIM group (add or remove members; displayName, externalId)',
          tags: TAGS,
          params: Params,
          body: ScimPatchBody,
          response: { 200: ScimGroupSchema, ...scimErrorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const operations = groupOperations(request.body)
        const principal = scimPrincipalOf(request)
        return json(
          await changeScimGroup(ctx, originOf(request), principal, request.params.groupId, operations),
        )
      },
    )

    app.delete(
      `${SCIM_BASE}/Groups/:groupId`,
      {
        preHandler: guard,
        schema: {
          summary: "Delete a SCIM group and its organization's team",
          tags: TAGS,
          params: Params,
          response: { 204: Type.Null(), ...scimErrorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteScimGroup(ctx, originOf(request), scimPrincipalOf(request), request.params.groupId)
        return reply.code(204).send(null)
      },
    )
  }
