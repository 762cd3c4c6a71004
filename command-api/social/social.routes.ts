/// Social sign-in and linked accounts, on better-auth's paths and shapes: POST /sign-in/social,
/// GET and POST /callback/:id, POST /link-social, POST /unlink-account, POST /get-access-token,
/// POST /refresh-token, and account-info (GET ?accountId=, as better-auth; POST {accountId}, as the
/// spec). get-access-token and refresh-token also serve a backend holding a server key, which
/// names the user with `userId`. One file per route (or pair of forms) under `routes/`.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { accountInfoRoutes } from './routes/account-info.routes.js'
import { callbackRoutes } from './routes/callback.routes.js'
import { linkSocialRoute } from './routes/link-social.route.js'
import { providerTokenRoutes } from './routes/provider-tokens.routes.js'
import { signInSocialRoute } from './routes/sign-in-social.route.js'
import { type SocialContext, socialKit } from './routes/social-route-kit.js'
import { unlinkAccountRoute } from './routes/unlink-account.route.js'

export const socialRoutes =
  (ctx: SocialContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    // A provider that answers with response_mode=form_post (Apple) posts the form here.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 65_536 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    )
    const kit = socialKit(ctx)
    for (const add of [
      signInSocialRoute,
      callbackRoutes,
      linkSocialRoute,
      unlinkAccountRoute,
      providerTokenRoutes,
      accountInfoRoutes,
    ])
      add(app, kit)
  }
