/// GET|POST /oauth2/userinfo (OpenID Connect Core 5.3) and GET /oauth2/end-session (RP-initiated
/// logout 1.0): the person's claims for a live access token, and the end of the Tessera session an
/// ID token names (its `sid`), with a redirect to a registered post-logout URI.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose'
import { Type } from 'typebox'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { revokeSession } from '../sessions/end-session.js'
import { verifyAccessToken } from './access-tokens.js'
import { userClaims } from './issued-tokens.js'
import { issuerOf, type OAuthContext } from './oauth-context.js'
import { bearerOf, noStore, oauthEdge, oauthErrorResponses } from './oauth-http.js'
import { userById } from './provider-cache.js'

const UserInfoSchema = Type.Object({ sub: Type.String() }, { additionalProperties: true })

export const oauthUserInfoRoutes =
  (ctx: OAuthContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    oauthEdge(app)

    const userInfo = async (request: FastifyRequest, reply: FastifyReply) => {
      noStore(reply)
      const token = bearerOf(request)
      const claims = token ? await verifyAccessToken(ctx, token) : null
      if (!claims || claims.gid === undefined) {
        reply.header('www-authenticate', 'Bearer error="invalid_token"')
        throw oauthError('invalid_token', 'invalid access token')
      }
      const scopes = claims.scope.split(' ')
      if (!scopes.includes('openid')) throw oauthError('invalid_scope', 'Missing required scope', 403)
      const user = await userById(ctx, claims.sub)
      if (!user) throw oauthError('invalid_token', 'user not found')
      return userClaims(ctx, user, scopes)
    }
    const schema = {
      summary: "The signed-in person's claims, as the access token's scopes allow",
      tags: ['OAuth provider'],
      response: { ...oauthErrorResponses, 200: UserInfoSchema },
    }
    app.get('/oauth2/userinfo', { schema }, userInfo)
    app.post('/oauth2/userinfo', { schema }, userInfo)

    app.get(
      '/oauth2/end-session',
      {
        schema: {
          summary: 'RP-initiated logout: end the Tessera session an ID token names',
          tags: ['OAuth provider'],
          querystring: Type.Object({
            id_token_hint: Type.Optional(Type.String({ maxLength: 8192 })),
            client_id: Type.Optional(Type.String({ maxLength: 256 })),
            post_logout_redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
            state: Type.Optional(Type.String({ maxLength: 2048 })),
          }),
          response: { ...oauthErrorResponses, 200: Type.Object({ signedOut: Type.Boolean() }) },
        },
      },
      async (request, reply) => {
        noStore(reply)
        const { id_token_hint: hint, post_logout_redirect_uri: redirectUri, state } = request.query
        if (!hint || !ctx.jwt) throw oauthError('invalid_request', 'id_token_hint is required')
        let claims: { sub?: string; sid?: string; aud?: string | string[] }
        try {
          // An expired ID token still names its session (RP-Initiated Logout 1.0 section 2).
          const keys = createLocalJWKSet(await ctx.jwt.publicKeySet())
          await jwtVerify(hint, keys, { issuer: issuerOf(ctx.config), clockTolerance: '100y' })
          claims = decodeJwt(hint)
        } catch {
          throw oauthError('invalid_request', 'invalid id_token_hint')
        }
        const clientId = typeof claims.aud === 'string' ? claims.aud : claims.aud?.[0]
        const client = clientId ? await ctx.lookups.oauthClients.findClient(clientId) : undefined
        if (!client || (request.query.client_id && request.query.client_id !== clientId))
          throw oauthError('invalid_client', 'invalid client')
        if (redirectUri && !client.settings.postLogoutRedirectUris.includes(redirectUri))
          throw oauthError('invalid_request', 'invalid post_logout_redirect_uri')
        if (claims.sid && claims.sub)
          await revokeSession(ctx, originOf(request), {
            sessionId: claims.sid,
            requestedBy: claims.sub,
            reason: 'sign-out',
          }).catch(
            // A session already ended is signed out all the same.
            (error: unknown) => {
              if (!(error instanceof Error && 'status' in error)) throw error
            },
          )
        if (!redirectUri) return { signedOut: true }
        const url = new URL(redirectUri)
        if (state) url.searchParams.set('state', state)
        return reply.redirect(url.toString(), 302)
      },
    )
  }
