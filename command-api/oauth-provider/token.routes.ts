/// POST /oauth2/token, /oauth2/revoke (RFC 7009) and /oauth2/introspect (RFC 7662), on the wire of
/// better-auth's oauth-provider. Form or JSON bodies; client authentication by `client_secret_basic`,
/// `client_secret_post` or `none`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { oauthError } from '../../domain/oauth-provider/oauth-errors.js'
import { oauthGrantDecider, oauthGrantStream } from '../../domain/oauth-provider/oauth-grant.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { verifyAccessToken } from './access-tokens.js'
import { grantIdOf } from './authorize.js'
import { authenticateClient } from './client-auth.js'
import type { OAuthContext } from './oauth-context.js'
import { noStore, oauthEdge, oauthErrorResponses } from './oauth-http.js'
import { clientCredentials, exchangeCode, refreshTokens } from './token-grants.js'

const Text = Type.String({ maxLength: 4096 })

const TokenBody = Type.Object({
  grant_type: Type.Optional(Text),
  code: Type.Optional(Text),
  redirect_uri: Type.Optional(Text),
  code_verifier: Type.Optional(Text),
  refresh_token: Type.Optional(Text),
  scope: Type.Optional(Text),
  client_id: Type.Optional(Text),
  client_secret: Type.Optional(Text),
  resource: Type.Optional(Type.Union([Text, Type.Array(Text)])),
})

const TokenAnswerSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.String(),
  expires_in: Type.Number(),
  expires_at: Type.Number(),
  scope: Type.String(),
  refresh_token: Type.Optional(Type.String()),
  id_token: Type.Optional(Type.String()),
})

const TokenHandleBody = Type.Object({
  token: Type.Optional(Text),
  token_type_hint: Type.Optional(Text),
  client_id: Type.Optional(Text),
  client_secret: Type.Optional(Text),
})

type Credentials = { client_id?: string | undefined; client_secret?: string | undefined }

const credentialsOf = (request: FastifyRequest, body: Credentials) => ({
  authorization: request.headers.authorization,
  clientId: body.client_id,
  clientSecret: body.client_secret,
})

export const oauthTokenRoutes =
  (ctx: OAuthContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    oauthEdge(app)

    app.post(
      '/oauth2/token',
      {
        schema: {
          summary: 'Exchange an authorization code, a refresh token or client credentials for tokens',
          tags: ['OAuth provider'],
          body: TokenBody,
          response: { ...oauthErrorResponses, 200: TokenAnswerSchema },
        },
      },
      async (request, reply) => {
        noStore(reply)
        const body = request.body
        const grantType = body.grant_type
        if (!grantType) throw oauthError('invalid_request', 'grant_type is required')
        if (!['authorization_code', 'refresh_token', 'client_credentials'].includes(grantType))
          throw oauthError('unsupported_grant_type', `unsupported grant_type ${grantType}`)
        const client = await authenticateClient(ctx, credentialsOf(request, body))
        if (!client.settings.grantTypes.includes(grantType))
          throw oauthError('unauthorized_client', `client is not authorized to use the ${grantType} grant`)
        const origin = originOf(request)
        if (grantType === 'client_credentials') return clientCredentials(ctx, client, body.scope)
        if (grantType === 'refresh_token') {
          if (!body.refresh_token) throw oauthError('invalid_request', 'refresh_token is required')
          return refreshTokens(ctx, origin, client, { refreshToken: body.refresh_token, scope: body.scope })
        }
        if (!body.code) throw oauthError('invalid_request', 'code is required')
        return exchangeCode(ctx, origin, client, {
          code: body.code,
          redirectUri: body.redirect_uri,
          codeVerifier: body.code_verifier,
        })
      },
    )

    app.post(
      '/oauth2/revoke',
      {
        schema: {
          summary: 'Revoke an access or refresh token (RFC 7009); its whole grant ends',
          tags: ['OAuth provider'],
          body: TokenHandleBody,
          response: { ...oauthErrorResponses, 200: Type.Null() },
        },
      },
      async (request, reply) => {
        noStore(reply)
        const client = await authenticateClient(ctx, credentialsOf(request, request.body))
        const token = request.body.token
        if (!token) throw oauthError('invalid_request', 'token is required')
        // A refresh token names its grant; an access token names it in its claims.
        const grantId = grantIdOf(token) ?? (await verifyAccessToken(ctx, token))?.gid ?? null
        // RFC 7009 2.2: an unknown or already invalid token is answered 200 all the same.
        if (grantId)
          await ctx.handle(
            oauthGrantDecider,
            oauthGrantStream(grantId),
            { type: 'revoke-grant', reason: 'revoked', clientId: client.clientId },
            { metadata: metadataFor(originOf(request), { type: 'system' }, ctx.clock()) },
          )
        return null
      },
    )

    app.post(
      '/oauth2/introspect',
      {
        schema: {
          summary: "A token's state and claims, for resource servers (RFC 7662)",
          tags: ['OAuth provider'],
          body: TokenHandleBody,
          response: {
            ...oauthErrorResponses,
            200: Type.Object({ active: Type.Boolean() }, { additionalProperties: true }),
          },
        },
      },
      async (request, reply) => {
        noStore(reply)
        await authenticateClient(ctx, credentialsOf(request, request.body))
        const token = request.body.token
        if (!token) throw oauthError('invalid_request', 'token is required')
        const claims = await verifyAccessToken(ctx, token)
        if (!claims) return { active: false }
        const { gid: _gid, ...rest } = claims
        return { active: true, token_type: 'Bearer', ...rest }
      },
    )
  }
