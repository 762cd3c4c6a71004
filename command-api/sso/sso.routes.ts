/// Enterprise single sign-on on `@better-auth/sso` 1.7.5's paths: POST /sso/register,
/// GET /sso/providers, GET /sso/get-provider, POST /sso/update-provider, POST /sso/delete-provider,
/// POST /sso/request-domain-verification, POST /sso/verify-domain, POST /sign-in/sso and
/// GET /sso/callback/:providerId; and Tessera's POST /sso/set-sso-requirement (require SSO for the
/// provider's verified domain, a departure listed in the README).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AUTH_ERRORS } from '../../domain/errors.js'
import { SSO_ERRORS, type SsoErrorCode } from '../../domain/sso/sso-errors.js'
import { type ServerKeyGuards, serverActor } from '../../http/guards/server-key.js'
import { sessionGuards } from '../../http/sessions/require-session.js'
import { dnsTxtLookup, type TxtLookup } from '../../infra/dns/txt-lookup.js'
import { errorBody, errorResponses, POST_ERRORS, SIGNED_IN_POST_ERRORS } from '../../infra/http/openapi.js'
import { originOf } from '../../infra/http/request-metadata.js'
import { setSessionCookie } from '../../infra/http/session-cookie.js'
import type { CommandContext } from '../context.js'
import { stateCookieName } from '../social/oauth-state.js'
import {
  deleteSsoProvider,
  getSsoProvider,
  listSsoProviders,
  requestDomainVerification,
  setSsoRequirement,
  updateSsoProvider,
  verifyDomain,
} from './manage-providers.js'
import { registerSsoProvider } from './register-provider.js'
import type { SsoCaller } from './sso-caller.js'
import { finishSsoFlow, startSsoFlow } from './sso-flow.js'
import {
  ProviderBody,
  ProviderId,
  RegisterBody,
  RequireSsoBody,
  SignInSsoBody,
  UpdateBody,
} from './sso-schemas.js'

const TAGS = ['Single sign-on']
const Json = Type.Record(Type.String(), Type.Unknown())

export const ssoErrors = (...codes: SsoErrorCode[]) => {
  const byStatus = new Map<number, string[]>()
  for (const code of codes) {
    const { status, message } = SSO_ERRORS[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\`: ${message}`])
  }
  return Object.fromEntries([...byStatus].map(([status, lines]) => [status, errorBody(lines.join('; '))]))
}

export type SsoRouteOptions = { txtLookup?: TxtLookup }

export const ssoRoutes =
  (
    ctx: CommandContext & { serverApi: ServerKeyGuards },
    options: SsoRouteOptions = {},
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { optionalSession } = sessionGuards(ctx)
    const lookup = options.txtLookup ?? dnsTxtLookup(ctx.config.sso.domainVerification.dnsServers)
    const settings = ctx.sessions.cookieSettings
    const stateCookie = stateCookieName(settings.secure)

    /** A server key (an operator), else a signed-in user; nobody else. */
    const callerOf = async (request: FastifyRequest, reply: FastifyReply): Promise<SsoCaller> => {
      const server = await ctx.serverApi.optionalServerKey(request, reply)
      if (server) return { kind: 'server', actor: serverActor(server) }
      const found = await optionalSession(request)
      if (!found) throw AUTH_ERRORS.error('UNAUTHORIZED')
      return {
        kind: 'user',
        userId: found.user.id,
        activeOrganizationId: found.session.active_organization_id,
      }
    }
    const access = {
      ...errorResponses(...SIGNED_IN_POST_ERRORS),
      ...ssoErrors('SSO_PROVIDER_NOT_FOUND', 'NO_ACCESS_TO_SSO_PROVIDER'),
    }
    app.post(
      '/sso/register',
      {
        schema: {
          summary: 'Register an OIDC or SAML identity provider for an organization and an email domain',
          tags: TAGS,
          body: RegisterBody,
          response: {
            ...errorResponses(...SIGNED_IN_POST_ERRORS, 'NO_ACTIVE_ORGANIZATION'),
            ...ssoErrors(
              'NOT_A_MEMBER_OF_THE_ORGANIZATION',
              'NOT_ALLOWED_TO_REGISTER_SSO_PROVIDER',
              'SSO_PROVIDER_ALREADY_EXISTS',
              'UNTRUSTED_IDP_ADDRESS',
              'DISCOVERY_FAILED',
              'SAML_CONFIG_INVALID',
              'SAML_ENCRYPTED_ASSERTION_UNSUPPORTED',
            ),
            200: Json,
          },
        },
      },
      async (request, reply) =>
        registerSsoProvider(ctx, originOf(request), await callerOf(request, reply), request.body),
    )

    app.get(
      '/sso/providers',
      {
        schema: {
          summary: 'The SSO providers of the organizations you own or administer',
          tags: TAGS,
          response: { 200: Json },
        },
      },
      async (request, reply) => listSsoProviders(ctx, await callerOf(request, reply)),
    )

    app.get(
      '/sso/get-provider',
      {
        schema: {
          summary: 'One SSO provider, sanitized (no secret, client id masked)',
          tags: TAGS,
          querystring: Type.Object({ providerId: ProviderId }, { additionalProperties: false }),
          response: { ...access, 200: Json },
        },
      },
      async (request, reply) => getSsoProvider(ctx, await callerOf(request, reply), request.query.providerId),
    )

    app.post(
      '/sso/update-provider',
      {
        schema: {
          summary: 'Change an SSO provider; a new domain must be verified again',
          tags: TAGS,
          body: UpdateBody,
          response: { ...access, ...ssoErrors('NO_FIELDS_TO_UPDATE', 'UNTRUSTED_IDP_ADDRESS'), 200: Json },
        },
      },
      async (request, reply) =>
        updateSsoProvider(ctx, originOf(request), await callerOf(request, reply), request.body),
    )

    app.post(
      '/sso/delete-provider',
      {
        schema: {
          summary: 'Remove an SSO provider',
          tags: TAGS,
          body: ProviderBody,
          response: { ...access, 200: Type.Object({ success: Type.Boolean() }) },
        },
      },
      async (request, reply) =>
        deleteSsoProvider(ctx, originOf(request), await callerOf(request, reply), request.body.providerId),
    )

    app.post(
      '/sso/request-domain-verification',
      {
        schema: {
          summary: 'The token to publish as a DNS TXT record at _<prefix>-<providerId>.<domain>',
          tags: TAGS,
          body: ProviderBody,
          response: {
            ...access,
            ...ssoErrors('DOMAIN_VERIFIED'),
            201: Type.Object({ domainVerificationToken: Type.String() }),
          },
        },
      },
      async (request, reply) => {
        const caller = await callerOf(request, reply)
        const answer = await requestDomainVerification(
          ctx,
          originOf(request),
          caller,
          request.body.providerId,
        )
        return reply.status(201).send(answer)
      },
    )

    app.post(
      '/sso/verify-domain',
      {
        schema: {
          summary: "Check the provider domain's DNS TXT record; 204 once verified",
          tags: TAGS,
          body: ProviderBody,
          response: {
            ...access,
            ...ssoErrors(
              'DOMAIN_VERIFIED',
              'NO_PENDING_VERIFICATION',
              'IDENTIFIER_TOO_LONG',
              'DOMAIN_VERIFICATION_FAILED',
            ),
            204: Type.Null(),
          },
        },
      },
      async (request, reply) => {
        const caller = await callerOf(request, reply)
        await verifyDomain(ctx, originOf(request), caller, request.body.providerId, lookup)
        return reply.status(204).send(null)
      },
    )

    app.post(
      '/sso/set-sso-requirement',
      {
        schema: {
          summary:
            "Tessera's: require sign-in through this provider for one verified domain, or all of them (password and social refused)",
          tags: TAGS,
          body: RequireSsoBody,
          response: {
            ...access,
            ...ssoErrors('SSO_REQUIREMENT_NEEDS_VERIFIED_DOMAIN', 'SSO_DOMAIN_NOT_FOUND'),
            200: Json,
          },
        },
      },
      async (request, reply) =>
        setSsoRequirement(
          ctx,
          originOf(request),
          await callerOf(request, reply),
          request.body.providerId,
          request.body.required,
          request.body.domain ?? null,
        ),
    )

    app.post(
      '/sign-in/sso',
      {
        schema: {
          summary:
            "Start a sign-in through an organization's identity provider (by email, slug or provider id)",
          tags: TAGS,
          body: SignInSsoBody,
          response: {
            ...errorResponses(...POST_ERRORS, 'INVALID_CALLBACK_URL', 'INVALID_ERROR_CALLBACK_URL'),
            ...ssoErrors('SSO_IDENTIFIER_REQUIRED', 'NO_SSO_PROVIDER_FOUND', 'PROVIDER_DOMAIN_NOT_VERIFIED'),
            200: Type.Object({ url: Type.String(), redirect: Type.Literal(true) }),
          },
        },
      },
      async (request, reply) => {
        const started = await startSsoFlow(ctx, request.body)
        reply.setCookie(started.cookie.name, started.cookie.value, {
          path: '/',
          httpOnly: true,
          // SAML's relay cookie must come back on the IdP's cross-site POST (saml-relay-state.ts).
          sameSite: started.cookie.sameSite,
          secure: settings.secure,
          maxAge: started.cookie.maxAge,
        })
        return { url: started.url, redirect: true as const }
      },
    )

    app.get(
      '/sso/callback/:providerId',
      {
        schema: {
          summary: "The identity provider's redirect back: signs in and goes on to the callbackURL",
          tags: TAGS,
          params: Type.Object({ providerId: ProviderId }),
          querystring: Type.Record(Type.String(), Type.String()),
          response: {
            ...ssoErrors('PROVIDER_DOMAIN_NOT_VERIFIED'),
            302: Type.Null({ description: 'Redirect' }),
          },
        },
      },
      async (request, reply) => {
        const outcome = await finishSsoFlow(ctx, originOf(request), {
          providerId: request.params.providerId,
          params: request.query,
          stateCookie: request.cookies[stateCookie],
        })
        reply.clearCookie(stateCookie, {
          path: '/',
          secure: settings.secure,
          sameSite: 'lax',
          httpOnly: true,
        })
        if (outcome.signedIn) setSessionCookie(reply, outcome.signedIn.session, settings)
        return reply.redirect(outcome.location, 302)
      },
    )
  }
