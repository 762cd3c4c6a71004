/// Client management on better-auth's oauth-provider routes: `/oauth2/create-client` (a signed-in
/// person, who owns the client; an operator), `/admin/oauth2/create-client` (operators: an admin's
/// session or a server key; may mark a client trusted, `skip_consent`), `/oauth2/register`
/// (RFC 7591 dynamic registration, when `allowDynamicClientRegistration`), and get, list, update,
/// rotate-secret and delete. The secret is in the answer that makes it, never again.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import {
  refuseUnlessMayManageClient,
  refuseUnlessMayManageOrganization,
} from '../../domain/oauth-provider/client-authority.js'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import { sessionGuards } from '../../http/sessions/require-session.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { type Acting, clientActing } from './client-acting.js'
import { ClientJsonSchema, ClientMetadataBody, changesOf, clientJson, settingsOf } from './client-json.js'
import { deleteClient, registerClient, rotateClientSecret, updateClient } from './manage-clients.js'
import type { OAuthContext } from './oauth-context.js'
import { noStore, oauthEdge, oauthErrorResponses } from './oauth-http.js'

const ClientIdBody = Type.Object({ client_id: Type.String({ maxLength: 256 }) })
const tags = ['OAuth provider']

export const oauthClientRoutes =
  (ctx: OAuthContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    oauthEdge(app)
    const { optionalSession } = sessionGuards(ctx)
    const { actingFor } = clientActing(ctx)

    /** An operator, else the signed-in person acting for themselves. */
    const actingOf = (request: FastifyRequest, reply: FastifyReply) => actingFor(request, reply, null)
    const operatorOf = async (request: FastifyRequest, reply: FastifyReply): Promise<Acting> => {
      const acting = await actingOf(request, reply)
      if (acting.caller.kind !== 'operator')
        throw oauthError('access_denied', 'only operators may do this', 403)
      return acting
    }
    /** The caller regarding an existing client: a member of its organization when it has one. */
    const actingOnClient = async (request: FastifyRequest, reply: FastifyReply, clientId: string) => {
      const client = await ctx.lookups.oauthClients.findClient(clientId)
      return { client, acting: await actingFor(request, reply, client?.organizationId ?? null) }
    }
    const created = (
      reply: FastifyReply,
      answer: { client: Parameters<typeof clientJson>[0]; secret: string | undefined },
    ) => {
      noStore(reply).status(201)
      return clientJson(answer.client, answer.secret)
    }
    const createdSchema = (summary: string) => ({
      summary,
      tags,
      body: ClientMetadataBody,
      response: { ...oauthErrorResponses, 201: ClientJsonSchema },
    })

    app.post(
      '/oauth2/create-client',
      { schema: createdSchema('Register an OAuth client') },
      async (request, reply) => {
        const organizationId = request.body.reference_id ?? null
        const acting = await actingFor(request, reply, organizationId)
        const settings = settingsOf(request.body)
        const origin = originOf(request)
        return created(reply, await registerClient(ctx, origin, acting, settings, 'managed', organizationId))
      },
    )

    app.post(
      '/admin/oauth2/create-client',
      { schema: createdSchema('Register an OAuth client as an operator (may skip consent)') },
      async (request, reply) => {
        const acting = await operatorOf(request, reply)
        const settings = settingsOf(request.body)
        const organizationId = request.body.reference_id ?? null
        return created(
          reply,
          await registerClient(ctx, originOf(request), acting, settings, 'admin', organizationId),
        )
      },
    )

    app.post(
      '/oauth2/register',
      { schema: createdSchema('Dynamic client registration (RFC 7591)') },
      async (request, reply) => {
        const options = ctx.config.oauthProvider
        if (!options.allowDynamicClientRegistration)
          throw oauthError('access_denied', 'Client registration is disabled', 403)
        const session = await optionalSession(request)
        if (!session && !options.allowUnauthenticatedClientRegistration) {
          reply.header('www-authenticate', 'Bearer')
          throw oauthError('invalid_token', 'Authentication required for client registration', 401)
        }
        const acting: Acting = session
          ? {
              caller: { kind: 'owner', userId: session.user.id },
              actor: { type: 'user', userId: session.user.id },
            }
          : { caller: { kind: 'anonymous' }, actor: { type: 'anonymous' } }
        // Without a session, RFC 7591 clients are public unless they ask otherwise.
        const settings = settingsOf({
          ...(session ? {} : { token_endpoint_auth_method: 'none' as const }),
          ...request.body,
        })
        return created(reply, await registerClient(ctx, originOf(request), acting, settings, 'dynamic'))
      },
    )

    const visible = async (request: FastifyRequest, reply: FastifyReply, clientId: string) => {
      const { client, acting } = await actingOnClient(request, reply, clientId)
      if (!client) throw oauthError('not_found', 'client not found')
      refuseUnlessMayManageClient(acting.caller, client, 'read')
      return client
    }

    app.get(
      '/oauth2/get-client',
      {
        schema: {
          summary: 'One of your OAuth clients (never its secret)',
          tags,
          querystring: ClientIdBody,
          response: { ...oauthErrorResponses, 200: ClientJsonSchema },
        },
      },
      async (request, reply) => clientJson(await visible(request, reply, request.query.client_id)),
    )

    app.get(
      '/oauth2/get-clients',
      {
        schema: {
          summary: "Your OAuth clients, an organization's (`reference_id`), or every client for an operator",
          tags,
          querystring: Type.Object({
            reference_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
          }),
          response: { ...oauthErrorResponses, 200: Type.Array(ClientJsonSchema) },
        },
      },
      async (request, reply) => {
        const organizationId = request.query.reference_id ?? null
        const acting = await actingFor(request, reply, organizationId)
        if (organizationId !== null) refuseUnlessMayManageOrganization(acting.caller, organizationId, 'read')
        const owner = acting.caller.kind === 'owner' ? acting.caller.userId : null
        return (await ctx.lookups.oauthClients.listClients(owner, organizationId)).map((client) =>
          clientJson(client),
        )
      },
    )

    app.post(
      '/oauth2/update-client',
      {
        schema: {
          summary: "Change an OAuth client's metadata",
          tags,
          body: Type.Object({ client_id: Type.String({ maxLength: 256 }), update: ClientMetadataBody }),
          response: { ...oauthErrorResponses, 200: ClientJsonSchema },
        },
      },
      async (request, reply) => {
        const { acting } = await actingOnClient(request, reply, request.body.client_id)
        const changes = changesOf(request.body.update)
        return clientJson(await updateClient(ctx, originOf(request), acting, request.body.client_id, changes))
      },
    )

    app.post(
      '/oauth2/client/rotate-secret',
      {
        schema: {
          summary: "Replace an OAuth client's secret; the new one is shown once",
          tags,
          body: ClientIdBody,
          response: { ...oauthErrorResponses, 200: ClientJsonSchema },
        },
      },
      async (request, reply) => {
        const { acting } = await actingOnClient(request, reply, request.body.client_id)
        const rotated = await rotateClientSecret(ctx, originOf(request), acting, request.body.client_id)
        noStore(reply)
        return clientJson(rotated.client, rotated.secret)
      },
    )

    app.post(
      '/oauth2/delete-client',
      {
        schema: {
          summary: 'Delete an OAuth client',
          tags,
          body: ClientIdBody,
          response: { ...oauthErrorResponses, 200: Type.Null() },
        },
      },
      async (request, reply) => {
        const { acting } = await actingOnClient(request, reply, request.body.client_id)
        await deleteClient(ctx, originOf(request), acting, request.body.client_id)
        return null
      },
    )
  }
