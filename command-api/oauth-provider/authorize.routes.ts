/// GET /oauth2/authorize, POST /oauth2/consent and GET /oauth2/public-client, on the wire of
/// better-auth's oauth-provider. The authorization endpoint redirects (302) a browser that navigates
/// to it and answers `{redirect: true, url}` to a fetch; the consent endpoint takes the signed
/// request back as `oauth_query` and answers `{redirect: true, url}`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { oauthConsentDecider, oauthConsentStream } from '../../domain/oauth-provider/oauth-consent.js'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import { authOf, sessionGuards } from '../../http/sessions/require-session.js'
import { acceptedSecrets } from '../../infra/config/config.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { authorize } from './authorize.js'
import { ownerOf } from './client-owner.js'
import type { OAuthContext } from './oauth-context.js'
import { oauthEdge, oauthErrorResponses } from './oauth-http.js'
import { verifyQuery } from './signed-query.js'

const RedirectAnswer = Type.Object({ redirect: Type.Boolean(), url: Type.String() })

/** A fetch (the portal, a client library) gets JSON; a navigating browser gets the redirect itself. */
export const answerRedirect = (request: FastifyRequest, reply: FastifyReply, url: string) => {
  const mode = request.headers['sec-fetch-mode']
  const wantsJson = (request.headers.accept ?? '').includes('application/json')
  if (wantsJson || (mode !== undefined && mode !== 'navigate')) return reply.send({ redirect: true, url })
  return reply.redirect(url, 302)
}

/** The request an `oauth_query` carries, verified; refused as better-auth does when it is not. */
export const oauthQueryOf = (ctx: OAuthContext, oauthQuery: string | undefined) => {
  if (!oauthQuery) throw oauthError('invalid_request', 'missing oauth query')
  const verified = verifyQuery(oauthQuery, acceptedSecrets(ctx.config), ctx.clock())
  if (!verified) throw oauthError('invalid_request', 'invalid_signature')
  return verified.query
}

export const oauthAuthorizeRoutes =
  (ctx: OAuthContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    oauthEdge(app)
    const { optionalSession, requireSession } = sessionGuards(ctx)

    app.get(
      '/oauth2/authorize',
      {
        schema: {
          summary: 'The authorization endpoint: code flow with PKCE (S256)',
          tags: ['OAuth provider'],
          querystring: Type.Record(Type.String(), Type.String({ maxLength: 4096 })),
          response: { ...oauthErrorResponses, 200: RedirectAnswer },
        },
      },
      async (request, reply) => {
        const session = await optionalSession(request)
        const query = new URLSearchParams(request.query)
        const url = await authorize(ctx, originOf(request), query, session)
        return answerRedirect(request, reply, url)
      },
    )

    app.post(
      '/oauth2/consent',
      {
        preHandler: requireSession,
        schema: {
          summary: 'Accept or deny the scopes a client asks for; the authorization goes on',
          tags: ['OAuth provider'],
          body: Type.Object({
            accept: Type.Boolean(),
            scope: Type.Optional(Type.String({ maxLength: 2048 })),
            oauth_query: Type.Optional(Type.String({ maxLength: 8192 })),
          }),
          response: { ...oauthErrorResponses, 200: RedirectAnswer },
        },
      },
      async (request) => {
        const found = authOf(request)
        const query = oauthQueryOf(ctx, request.body.oauth_query)
        const clientId = query.get('client_id')
        if (!clientId) throw oauthError('invalid_client', 'client_id is required')
        const asked = (query.get('scope') ?? '').split(' ').filter(Boolean)
        const accepted = request.body.scope?.split(' ').filter(Boolean) ?? asked
        if (!accepted.every((scope) => asked.includes(scope)))
          throw oauthError('invalid_request', 'Scope not originally requested')
        const back = new URL(query.get('redirect_uri') ?? '')
        if (!request.body.accept) {
          for (const [key, value] of Object.entries({
            error: 'access_denied',
            error_description: 'User denied access',
          }))
            back.searchParams.set(key, value)
          const state = query.get('state')
          if (state) back.searchParams.set('state', state)
          return { redirect: true, url: back.toString() }
        }
        const origin = originOf(request)
        const now = ctx.clock()
        await ctx.handle(
          oauthConsentDecider,
          oauthConsentStream(found.user.id, clientId),
          {
            type: 'grant-consent',
            userId: found.user.id,
            clientId,
            scopes: accepted,
            now: now.toISOString(),
          },
          { metadata: metadataFor(origin, { type: 'user', userId: found.user.id }, now) },
        )
        query.set('scope', accepted.join(' '))
        const url = await authorize(ctx, origin, query, found, { justSignedIn: true, justConsented: true })
        return { redirect: true, url }
      },
    )

    app.get(
      '/oauth2/public-client',
      {
        schema: {
          summary: "A client's public face (name, logo, links) for the consent page",
          tags: ['OAuth provider'],
          querystring: Type.Object({ client_id: Type.String({ maxLength: 256 }) }),
          response: {
            ...oauthErrorResponses,
            200: Type.Object({
              client_id: Type.String(),
              client_name: Type.Optional(Type.String()),
              client_uri: Type.Optional(Type.String()),
              logo_uri: Type.Optional(Type.String()),
              tos_uri: Type.Optional(Type.String()),
              policy_uri: Type.Optional(Type.String()),
              owner: Type.Optional(Type.String()),
              // Tessera's: who registered the client, for the consent page (client-owner.ts).
              owner_type: Type.Union([
                Type.Literal('organization'),
                Type.Literal('user'),
                Type.Literal('operator'),
                Type.Literal('dynamic'),
              ]),
            }),
          },
        },
      },
      async (request) => {
        const client = await ctx.lookups.oauthClients.findClient(request.query.client_id)
        // A disabled client is not shown, as better-auth answers it.
        if (!client || client.settings.disabled) throw oauthError('not_found', 'client not found')
        const { name, uri, logoUri, tosUri, policyUri } = client.settings
        return {
          client_id: client.clientId,
          ...(name ? { client_name: name } : {}),
          ...(uri ? { client_uri: uri } : {}),
          ...(logoUri ? { logo_uri: logoUri } : {}),
          ...(tosUri ? { tos_uri: tosUri } : {}),
          ...(policyUri ? { policy_uri: policyUri } : {}),
          ...(await ownerOf(ctx.db, client)),
        }
      },
    )
  }
