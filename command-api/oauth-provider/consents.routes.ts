/// A person's consents ("Connected applications"): GET /oauth2/get-consents and POST
/// /oauth2/delete-consent, on better-auth's oauth-provider routes. A consent's id is its client's
/// id (one consent per person and client). Revoking it ends every grant the person gave that
/// client, so its refresh and access tokens stop working at once.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { oauthConsentDecider, oauthConsentStream } from '../../domain/oauth-provider/oauth-consent.js'
import { oauthGrantDecider, oauthGrantStream } from '../../domain/oauth-provider/oauth-grant.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { originOf } from '../../infra/http/request-metadata.js'
import {
  findClient,
  listConsents,
  listLiveGrants,
} from '../../projections/oauth-provider/oauth-provider.repository.js'
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
          tags: ['OAuth provider'],
          response: { ...oauthErrorResponses, 200: Type.Array(ConsentSchema) },
        },
      },
      async (request) => {
        const userId = authOf(request).user.id
        const consents = await listConsents(ctx.db, userId)
        return Promise.all(
          consents.map(async (row) => {
            const name = (await findClient(ctx.db, row.client_id))?.settings.name
            return {
              id: row.client_id,
              clientId: row.client_id,
              userId,
              ...(name ? { clientName: name } : {}),
              scopes: row.scopes.split(' ').filter(Boolean),
              createdAt: row.created_at.toISOString(),
              updatedAt: row.updated_at.toISOString(),
            }
          }),
        )
      },
    )

    app.post(
      '/oauth2/delete-consent',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Revoke your consent to an application; its tokens stop working',
          tags: ['OAuth provider'],
          body: Type.Object({ id: Type.String({ maxLength: 256 }) }),
          response: { ...oauthErrorResponses, 200: Type.Null() },
        },
      },
      async (request) => {
        const userId = authOf(request).user.id
        const clientId = request.body.id
        const metadata = metadataFor(originOf(request), { type: 'user', userId }, ctx.clock())
        await ctx.handle(
          oauthConsentDecider,
          oauthConsentStream(userId, clientId),
          { type: 'revoke-consent', userId, clientId },
          { metadata },
        )
        for (const grant of await listLiveGrants(ctx.db, userId, clientId))
          await ctx.handle(
            oauthGrantDecider,
            oauthGrantStream(grant.grant_id),
            { type: 'revoke-grant', reason: 'consent-revoked', userId },
            { metadata },
          )
        return null
      },
    )
  }
