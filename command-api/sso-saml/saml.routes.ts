/// SAML's routes on `@better-auth/sso` 1.7.5's paths: POST /sso/saml2/sp/acs/:providerId (the IdP
/// posts its answer here, form-urlencoded or JSON; a GET there sends a signed-in browser on to its
/// RelayState, as the plugin's) and GET /sso/saml2/sp/metadata?providerId= (our
/// SP metadata for the IdP's administrator). Sign-in starts at POST /sign-in/sso (sso.routes.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { SSO_ERRORS } from '../../domain/sso/sso-errors.js'
import { sessionGuards } from '../../http/sessions/require-session.js'
import type { CrossSitePostRoute } from '../../infra/http/origin-check.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import { isTrustedUrl } from '../../infra/http/trusted-url.js'
import type { CommandContext } from '../context.js'
import { withError } from '../shared/error-redirect.js'
import { ssoErrors } from '../sso/sso.routes.js'
import { ProviderId } from '../sso/sso-schemas.js'
import { acsUrl } from './saml-config.js'
import { finishSamlFlow, samlBaseUrl, samlMetadataOf } from './saml-flow.js'
import { BOUNCE_FIELD, needsSameSiteBounce, sendRelayBounce } from './saml-relay-bounce.js'
import { relayCookieName } from './saml-relay-state.js'

const TAGS = ['Single sign-on']

const AcsBody = Type.Object(
  {
    SAMLResponse: Type.Optional(Type.String({ maxLength: 4 * 1024 * 1024 })),
    RelayState: Type.Optional(Type.String({ maxLength: 1024 })),
    [BOUNCE_FIELD]: Type.Optional(Type.Literal('1')),
  },
  { additionalProperties: true },
)

export const samlRoutes =
  (ctx: CommandContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const settings = ctx.sessions.cookieSettings
    const relayCookie = relayCookieName(settings.secure)
    const errorPage = `${ctx.config.baseUrl}${ctx.config.basePath}/error`
    // The IdP's form (HTTP-POST binding) arrives form-urlencoded; bounded by maxResponseSize (base64 of it).
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: Math.ceil(ctx.config.sso.saml.maxResponseSize * 1.5) + 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    )

    app.post(
      '/sso/saml2/sp/acs/:providerId',
      {
        config: { crossSitePost: true } satisfies CrossSitePostRoute,
        schema: {
          summary:
            "The SAML assertion consumer service: the IdP's signed answer signs in, then the callbackURL",
          tags: TAGS,
          params: Type.Object({ providerId: ProviderId }),
          body: AcsBody,
          response: {
            ...ssoErrors('SAML_RESPONSE_REQUIRED', 'PROVIDER_DOMAIN_NOT_VERIFIED'),
            302: Type.Null({
              description: 'Redirect: the callbackURL, or the error URL with error and error_description',
            }),
            200: Type.String({
              description:
                'The relay cookie stayed home (plain http): a page that posts the answer again same-site',
            }),
          },
        },
      },
      async (request, reply) => {
        const samlResponse = request.body.SAMLResponse
        if (!samlResponse) throw SSO_ERRORS.error('SAML_RESPONSE_REQUIRED')
        const { RelayState, [BOUNCE_FIELD]: bounced } = request.body
        if (RelayState && needsSameSiteBounce({ cookie: request.cookies[relayCookie], bounced }))
          return sendRelayBounce(reply, acsUrl(request.params, samlBaseUrl(ctx)), {
            SAMLResponse: samlResponse,
            RelayState,
          })
        const outcome = await finishSamlFlow(ctx, originOf(request), {
          providerId: request.params.providerId,
          samlResponse,
          relayState: request.body.RelayState,
          relayCookie: request.cookies[relayCookie],
        })
        reply.clearCookie(relayCookie, { path: '/', secure: settings.secure, httpOnly: true })
        if (!outcome.ok)
          return reply.redirect(
            withError(outcome.errorURL ?? errorPage, outcome.error, outcome.description),
            302,
          )
        setSessionCookie(reply, outcome.signedIn.session, settings)
        return reply.redirect(outcome.location, 302)
      },
    )

    const { optionalSession } = sessionGuards(ctx)
    const appOrigin = new URL(ctx.config.baseUrl).origin
    /** A trusted URL that does not lead back here (no loop), else our origin: the plugin's rule. */
    const safeTarget = (target: string | undefined, providerId: string) => {
      const acsPath = `${ctx.config.basePath}/sso/saml2/sp/acs/${encodeURIComponent(providerId)}`
      if (!target || !isTrustedUrl(target, ctx.config.trustedOrigins)) return appOrigin
      return new URL(target, appOrigin).pathname === acsPath ? appOrigin : target
    }
    app.get(
      '/sso/saml2/sp/acs/:providerId',
      {
        schema: {
          summary: 'After a SAML sign-in: a signed-in browser goes on to its RelayState (a trusted URL)',
          tags: TAGS,
          params: Type.Object({ providerId: ProviderId }),
          querystring: Type.Object({ RelayState: Type.Optional(Type.String({ maxLength: 2048 })) }),
          response: {
            302: Type.Null({ description: 'Redirect: RelayState, or /error?error=invalid_request' }),
          },
        },
      },
      async (request, reply) => {
        if (!(await optionalSession(request)))
          return reply.redirect(withError(`${appOrigin}/error`, 'invalid_request'), 302)
        return reply.redirect(safeTarget(request.query.RelayState, request.params.providerId), 302)
      },
    )

    app.get(
      '/sso/saml2/sp/metadata',
      {
        schema: {
          summary: "Our SAML service-provider metadata (entity id, ACS URL) for the IdP's administrator",
          tags: TAGS,
          querystring: Type.Object({ providerId: ProviderId }, { additionalProperties: false }),
          response: {
            ...ssoErrors('NO_SAML_PROVIDER_FOUND'),
            200: Type.String({ description: 'SAML metadata in XML format (application/xml)' }),
          },
        },
      },
      async (request, reply) => {
        const xml = await samlMetadataOf(ctx, request.query.providerId)
        if (xml === null) throw SSO_ERRORS.error('NO_SAML_PROVIDER_FOUND')
        return reply.type('application/xml').send(xml)
      },
    )
  }
