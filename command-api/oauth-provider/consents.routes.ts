/// A person's consents ("Connected applications") on better-auth's oauth-provider routes:
/// GET /oauth2/get-consents and /oauth2/get-consent?id=, POST /oauth2/update-consent
/// (`{id, update: {scopes}}`) and /oauth2/delete-consent (`{id}`). A consent's id is its client's
/// id (one consent per person and client); another person's consent answers as an unknown one.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { consentJson, consentOf, revokeConsent, updateConsent } from './manage-consents.js'
import type { OAuthContext } from './oauth-context.js'
import { oauthEdge, oauthErrorResponses } from './oauth-http.js'

const ConsentSchema = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  userId: Type.String(),
  clientName: Type.Optional(Type.String()),
  scopes: Type.Array(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})
const Id = Type.String({ maxLength: 256 })
const tags = ['OAuth provider']

export const oauthConsentRoutes =
  (ctx: OAuthContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    oauthEdge(app)
    const { requireSession } = sessionGuards(ctx)

    app.get(
      '/oauth2/get-consents',
      {
        preHandler: requireSession,
        schema: {
          summary: 'The applications you let act for you, with the scopes you agreed to',
          tags,
          response: { ...oauthErrorResponses, 200: Type.Array(ConsentSchema) },
        },
      },
      async (request) => {
        const consents = await ctx.lookups.oauthClients.listConsents(authOf(request).user.id)
        return Promise.all(consents.map((row) => consentJson(ctx, row)))
      },
    )

    app.get(
      '/oauth2/get-consent',
      {
        preHandler: requireSession,
        schema: {
          summary: 'One application you let act for you',
          tags,
          querystring: Type.Object({ id: Id }),
          response: { ...oauthErrorResponses, 200: ConsentSchema },
        },
      },
      async (request) => consentJson(ctx, await consentOf(ctx, authOf(request).user.id, request.query.id)),
    )

    app.post(
      '/oauth2/update-consent',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Change the scopes you agreed to; grants holding a scope you took back end',
          tags,
          body: Type.Object({
            id: Id,
            update: Type.Object({ scopes: Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 }) }),
          }),
          response: { ...oauthErrorResponses, 200: ConsentSchema },
        },
      },
      async (request) => {
        const userId = authOf(request).user.id
        const { id, update } = request.body
        return consentJson(ctx, await updateConsent(ctx, originOf(request), userId, id, update.scopes))
      },
    )

    app.post(
      '/oauth2/delete-consent',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Revoke your consent to an application; its tokens stop working',
          tags,
          body: Type.Object({ id: Id }),
          response: { ...oauthErrorResponses, 200: Type.Null() },
        },
      },
      async (request) => {
        await revokeConsent(ctx, originOf(request), authOf(request).user.id, request.body.id)
        return null
      },
    )
  }
