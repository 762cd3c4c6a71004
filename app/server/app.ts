/// Builds the HTTP application as a Fastify instance: the auth API under /api/auth (command and
/// query routes), error answers in one shape, and the portal's static files at /.

import { randomUUID } from 'node:crypto'
import fastifyCookie from '@fastify/cookie'
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import type { Logger } from 'pino'
import { accountRoutes } from '../../command-api/account/account.routes.js'
import { adminRoutes } from '../../command-api/admin/admin.routes.js'
import { apiKeyCommandRoutes } from '../../command-api/api-key/api-key.routes.js'
import { emailOtpRoutes } from '../../command-api/email-otp/email-otp.routes.js'
import { verificationCodeOnSignUp } from '../../command-api/email-otp/verification-on-sign-up.js'
import { emailPasswordRoutes } from '../../command-api/email-password/email-password.routes.js'
import { emailVerificationRoutes } from '../../command-api/email-verification/email-verification.routes.js'
import { magicLinkRoutes } from '../../command-api/magic-link/magic-link.routes.js'
import { deviceSessionsHook } from '../../command-api/multi-session/device-sessions.hook.js'
import { multiSessionRoutes } from '../../command-api/multi-session/multi-session.routes.js'
import { oauthContinueHooks } from '../../command-api/oauth-provider/oauth-continue.hook.js'
import { oauthProviderRoutes } from '../../command-api/oauth-provider/oauth-provider.routes.js'
import { organizationRoutes } from '../../command-api/organization/organization.routes.js'
import { passkeyRoutes } from '../../command-api/passkey/passkey.routes.js'
import { passwordResetRoutes } from '../../command-api/password-reset/password-reset.routes.js'
import { scimCommandRoutes } from '../../command-api/scim/scim.routes.js'
import { scimCredentialRoutes } from '../../command-api/scim/scim-credentials.routes.js'
import { scimGroupCommandRoutes } from '../../command-api/scim/scim-groups.routes.js'
import { serverApiRoutes } from '../../command-api/server-api/server-api.routes.js'
import { sessionCommandRoutes } from '../../command-api/sessions/session-commands.routes.js'
import { readYourWritesHook } from '../../command-api/shared/read-your-writes.js'
import { socialRoutes } from '../../command-api/social/social.routes.js'
import { ssoRoutes } from '../../command-api/sso/sso.routes.js'
import { samlRoutes } from '../../command-api/sso-saml/saml.routes.js'
import { twoFactorRoutes } from '../../command-api/two-factor/two-factor.routes.js'
import { usernameRoutes } from '../../command-api/username/username.routes.js'
import { webhookCommandRoutes } from '../../command-api/webhooks/webhook.routes.js'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { Config } from '../../infra/config/config.js'
import { exposeAuthTokenHook } from '../../infra/http/auth-token-header.js'
import { serializersOnFirstUse, validatorsOnFirstUse } from '../../infra/http/compile-on-first-use.js'
import { installErrorHandling } from '../../infra/http/error-handler.js'
import { frameGuardHook } from '../../infra/http/frame-guard.js'
import { freeFormJsonHook } from '../../infra/http/free-form-json.js'
import { noStoreHook } from '../../infra/http/no-store.js'
import { nulGuardHook } from '../../infra/http/nul-guard.js'
import { originCheckHook } from '../../infra/http/origin-check.js'
import { registerRateLimit } from '../../infra/http/rate-limit.js'
import { locationEncodingHook } from '../../infra/http/redirect.js'
import { registerRequestPlace } from '../../infra/http/request-place.js'
import { trustedUrlsHook } from '../../infra/http/trusted-url.js'
import { activityQueryRoutes } from '../../query-api/activity/activity.routes.js'
import { adminQueryRoutes } from '../../query-api/admin/admin-queries.routes.js'
import { apiKeyQueryRoutes } from '../../query-api/api-key/api-key.routes.js'
import { pendingEmailChangeRoutes } from '../../query-api/email-change/pending-email-change.routes.js'
import { eventFeedRoutes } from '../../query-api/events/events.routes.js'
import { healthRoutes } from '../../query-api/health/health.routes.js'
import { jwtRoutes } from '../../query-api/jwt/jwt.routes.js'
import { deviceSessionQueryRoutes } from '../../query-api/multi-session/device-sessions.routes.js'
import { discoveryRoutes, rootDiscoveryRoutes } from '../../query-api/oauth-provider/discovery.routes.js'
import { organizationQueryRoutes } from '../../query-api/organization/organization-queries.routes.js'
import { passkeyQueryRoutes } from '../../query-api/passkey/passkey.routes.js'
import { portalConfigRoutes } from '../../query-api/portal/portal-config.routes.js'
import { scimGroupQueryRoutes } from '../../query-api/scim/scim-group-queries.routes.js'
import { scimQueryRoutes } from '../../query-api/scim/scim-queries.routes.js'
import { sessionFactorRoutes } from '../../query-api/session-factors/session-factors.routes.js'
import { sessionQueryRoutes } from '../../query-api/sessions/session-queries.routes.js'
import { socialQueryRoutes } from '../../query-api/social/social.routes.js'
import { webhookQueryRoutes } from '../../query-api/webhooks/webhook-queries.routes.js'
import { registerApiReference } from './api-reference.js'
import type { AppContext } from './context.js'
import { registerPortal } from './portal.js'

/** Auth requests are small; a larger body is refused before it is parsed. */
const BODY_LIMIT_BYTES = 64 * 1024

/** TRUST_PROXY as Fastify takes it; a hop count trusts that many proxies nearest to us. */
const trustProxyOption = (setting: Config['trustProxy']) => {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting
  return typeof setting === 'boolean' ? setting : [...setting]
}

export type BuildAppOptions = {
  logger: Logger
  portalDir?: string | null
  /**
   * When route schemas are compiled: on first use (the default, infra/http/compile-on-first-use.ts),
   * or all while the app starts, as Fastify does by default (a test that every schema compiles).
   */
  compileSchemas?: 'on-first-use' | 'at-start-up'
}

export const buildApp = async (
  ctx: AppContext,
  { logger, portalDir = null, compileSchemas = 'on-first-use' }: BuildAppOptions,
): Promise<FastifyInstance> => {
  const loggerInstance: FastifyBaseLogger = logger
  const base = Fastify({
    loggerInstance,
    bodyLimit: BODY_LIMIT_BYTES,
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Request ids become events' correlation ids: Fastify's default ('req-1', 'req-2', ...) restarts
    // with every process, so ids would repeat across restarts and instances in the audit log.
    genReqId: () => randomUUID(),
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    routerOptions: { ignoreDuplicateSlashes: false, ignoreTrailingSlash: false },
    ...(compileSchemas === 'on-first-use'
      ? { schemaController: { compilersFactory: { buildSerializer: serializersOnFirstUse } } }
      : {}),
  })
  base.setValidatorCompiler(
    compileSchemas === 'on-first-use'
      ? validatorsOnFirstUse(TypeBoxValidatorCompiler)
      : TypeBoxValidatorCompiler,
  )
  // The API speaks JSON only: without this, Fastify's built-in text/plain parser turns such a
  // body into a string and the caller gets a confusing 400 instead of 415 (better-auth: 415).
  base.removeContentTypeParser('text/plain')
  base.decorateRequest('auth', null)
  // Where a trusted proxy placed the client, for the sessions a request starts.
  registerRequestPlace(base, ctx.config.placeHeaders)
  installErrorHandling(base)
  // A command the read models cannot show within the request's bound answers 503, never 200.
  base.addHook('onSend', readYourWritesHook(ctx.readYourWrites))
  // No page may be framed; any redirect's Location is written so a header can carry it.
  base.addHook('onSend', frameGuardHook)
  base.addHook('onSend', locationEncodingHook)
  // Protection (infra/http/rate-limit.ts): app-level, ahead of routing, so that spellings of API
  // paths the router does not match (`//sign-in/email`) still count.
  // A backend holding a server key is limited by the server API's own buckets, not per address.
  await registerRateLimit(base, ctx.config, (request) => ctx.serverApi.holdsServerKey(request))
  await base.register(fastifyCookie)
  await registerApiReference(base, ctx.config)
  const app = base.withTypeProvider<TypeBoxTypeProvider>()

  await app.register(
    async (api) => {
      // Protection (infra/http): CSRF origin check, then trusted callback/redirect URLs; added
      // before the routes so that every route plugin below inherits them.
      api.addHook('onRequest', originCheckHook(ctx.config))
      // Free-form JSON is bounded (infra/http/free-form-json.ts), then:
      // Input PostgreSQL cannot store would otherwise poison the projector (infra/http/nul-guard.ts).
      api.addHook('preValidation', freeFormJsonHook)
      api.addHook('preValidation', nulGuardHook)
      api.addHook('preHandler', trustedUrlsHook(ctx.config))
      // An answer that sets the session cookie: the device keeps a cookie per account
      // (multi-session), and a browser app on a trusted origin may read `set-auth-token` (bearer).
      api.addHook('onSend', deviceSessionsHook(ctx))
      api.addHook('onSend', exposeAuthTokenHook(ctx.config))
      // Someone's answer (a session, bearer token or API key asked) is never cached (no-store.ts).
      api.addHook('onSend', noStoreHook)
      // emailOTP.sendVerificationOnSignUp: a code to each new account, once the answer went out.
      api.addHook('onResponse', verificationCodeOnSignUp(ctx))
      // A sign-in on the OpenID provider's login page goes on with the authorization (oauth_query).
      const oauthContinue = oauthContinueHooks(ctx)
      if (ctx.config.oauthProvider.enabled) api.addHook('preHandler', oauthContinue.preHandler)
      if (ctx.config.oauthProvider.enabled) api.addHook('onSend', oauthContinue.onSend)
      await api.register(emailPasswordRoutes(ctx))
      await api.register(usernameRoutes(ctx))
      await api.register(sessionCommandRoutes(ctx))
      await api.register(emailVerificationRoutes(ctx))
      await api.register(passwordResetRoutes(ctx))
      await api.register(accountRoutes(ctx))
      await api.register(multiSessionRoutes(ctx))
      await api.register(organizationRoutes(ctx))
      await api.register(organizationQueryRoutes(ctx))
      await api.register(sessionQueryRoutes(ctx))
      await api.register(activityQueryRoutes(ctx))
      await api.register(pendingEmailChangeRoutes(ctx))
      await api.register(deviceSessionQueryRoutes(ctx))
      await api.register(healthRoutes(ctx))
      await api.register(portalConfigRoutes(ctx))
      await api.register(jwtRoutes(ctx))
      await api.register(adminRoutes(ctx))
      await api.register(adminQueryRoutes(ctx))
      await api.register(socialRoutes(ctx))
      await api.register(socialQueryRoutes(ctx))
      await api.register(serverApiRoutes(ctx))
      await api.register(apiKeyCommandRoutes(ctx))
      await api.register(apiKeyQueryRoutes(ctx))
      await api.register(twoFactorRoutes(ctx))
      await api.register(passkeyRoutes(ctx))
      await api.register(passkeyQueryRoutes(ctx))
      await api.register(sessionFactorRoutes(ctx))
      await api.register(magicLinkRoutes(ctx))
      await api.register(emailOtpRoutes(ctx))
      await api.register(webhookCommandRoutes(ctx))
      await api.register(webhookQueryRoutes(ctx))
      await api.register(eventFeedRoutes(ctx))
      await api.register(oauthProviderRoutes(ctx))
      await api.register(discoveryRoutes(ctx))
      await api.register(scimCommandRoutes(ctx))
      await api.register(scimQueryRoutes(ctx))
      await api.register(scimCredentialRoutes(ctx))
      await api.register(scimGroupCommandRoutes(ctx))
      await api.register(scimGroupQueryRoutes(ctx))
      await api.register(ssoRoutes(ctx))
      await api.register(samlRoutes(ctx))
    },
    { prefix: ctx.config.basePath },
  )
  await app.register(rootDiscoveryRoutes(ctx))

  const notFound = () => {
    const { status, code, message } = AUTH_ERRORS.NOT_FOUND
    return { status, body: { code, message } }
  }
  if (portalDir) await registerPortal(base, portalDir, ctx.config.basePath, notFound)
  else
    base.setNotFoundHandler((_request, reply) => {
      const { status, body } = notFound()
      return reply.status(status).send(body)
    })
  return base
}
