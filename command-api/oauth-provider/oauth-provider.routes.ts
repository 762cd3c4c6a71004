/// Tessera as an OAuth 2.1 authorization server and OpenID provider (`oauthProvider` in
/// tessera.config.json): every route of the feature, registered together under the API's base
/// path. Discovery lives on the query side (its oauth-provider/discovery.routes.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { oauthAuthorizeRoutes } from './authorize.routes.js'
import { oauthClientRoutes } from './clients.routes.js'
import { oauthConsentRoutes } from './consents.routes.js'
import type { OAuthContext } from './oauth-context.js'
import { oauthTokenRoutes } from './token.routes.js'
import { oauthUserInfoRoutes } from './userinfo.routes.js'

export const oauthProviderRoutes =
  (ctx: OAuthContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    if (!ctx.config.oauthProvider.enabled) return
    await app.register(oauthClientRoutes(ctx))
    await app.register(oauthAuthorizeRoutes(ctx))
    await app.register(oauthTokenRoutes(ctx))
    await app.register(oauthUserInfoRoutes(ctx))
    await app.register(oauthConsentRoutes(ctx))
  }
