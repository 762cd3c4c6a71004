/// SCIM's writing routes under the plugin's base path: create (201 with Location), replace (PUT),
/// patch and delete (204) a User of the calling connection. Each needs `scim.users.write`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { scimGuard, scimPrincipalOf } from '../../http/scim/scim-auth.js'
import { SCIM_BASE, scimErrorResponses, speakScim } from '../../http/scim/scim-http.js'
import { ScimUserSchema, scimUserJson } from '../../http/scim/scim-presenter.js'
import { originOf } from '../../infra/http/request-metadata.js'
import type { CommandContext } from '../context.js'
import { applyScimPatch, ScimPatchBody } from './scim-patch.js'
import { canonicalUser, ScimUserBody, type ScimUserResource } from './scim-resource.js'
import { createScimUser, deleteScimUser, patchScimUser, replaceScimUser } from './scim-users.js'

const TAGS = ['SCIM']
const Params = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 256 }) })

export const scimCommandRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    speakScim(app)
    const guard = scimGuard(ctx)
    const { baseUrl, basePath } = ctx.config
    const json = (row: Parameters<typeof scimUserJson>[0]) => scimUserJson(row, baseUrl, basePath)

    app.post(
      `${SCIM_BASE}/Users`,
      {
        preHandler: guard,
        schema: {
          summary: 'Provision a SCIM user: the account and its membership of the organization',
          tags: TAGS,
          body: ScimUserBody,
          response: { 201: ScimUserSchema, ...scimErrorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const principal = scimPrincipalOf(request)
        const row = await createScimUser(ctx, originOf(request), principal, canonicalUser(request.body))
        const body = json(row)
        return reply.code(201).header('location', body.meta.location).send(body)
      },
    )

    app.put(
      `${SCIM_BASE}/Users/:userId`,
      {
        preHandler: guard,
        schema: {
          summary: 'Replace a SCIM user (active: false deactivates)',
          tags: TAGS,
          params: Params,
          body: ScimUserBody,
          response: { 200: ScimUserSchema, ...scimErrorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const principal = scimPrincipalOf(request)
        const input = canonicalUser(request.body)
        return json(await replaceScimUser(ctx, originOf(request), principal, request.params.userId, input))
      },
    )

    app.patch(
      `${SCIM_BASE}/Users/:userId`,
      {
        preHandler: guard,
        schema: {
          summary: 'Patch a SCIM user (add, replace, remove; active: false deactivates)',
          tags: TAGS,
          params: Params,
          body: ScimPatchBody,
          response: { 200: ScimUserSchema, ...scimErrorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const principal = scimPrincipalOf(request)
        const patch = (resource: ScimUserResource) => canonicalUser(applyScimPatch(resource, request.body))
        return json(await patchScimUser(ctx, originOf(request), principal, request.params.userId, patch))
      },
    )

    app.delete(
      `${SCIM_BASE}/Users/:userId`,
      {
        preHandler: guard,
        schema: {
          summary: 'Delete a SCIM user: the membership and the directory record go',
          tags: TAGS,
          params: Params,
          response: { 204: Type.Null(), ...scimErrorResponses(401, 403, 404) },
        },
      },
      async (request, reply) => {
        await deleteScimUser(ctx, originOf(request), scimPrincipalOf(request), request.params.userId)
        return reply.code(204).send(null)
      },
    )
  }
