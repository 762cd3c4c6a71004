/// GET /portal-config (Tessera's own): what this deployment is configured to do, so the portal's
/// words match what will happen (whether sign-up mails a link, whether deletion is immediate).
/// Public: it holds no secret, only switches a visitor would find out by trying.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ANY_ROUTE_ERRORS, errorResponses } from '../../infra/http/openapi.js'
import type { QueryContext } from '../context.js'
import { PortalBranding, portalBranding } from './portal-branding.js'

const PortalConfig = Type.Object({
  emailVerification: Type.Object({ sendOnSignUp: Type.Boolean(), required: Type.Boolean() }),
  deleteUser: Type.Object({ enabled: Type.Boolean(), immediate: Type.Boolean() }),
  changeEmail: Type.Object({ enabled: Type.Boolean() }),
  branding: PortalBranding,
  /** The label of the DNS TXT record an SSO domain is verified by (`sso.domainVerification.tokenPrefix`). */
  sso: Type.Object({ domainVerificationPrefix: Type.String() }),
  /** Whether Tessera is an OpenID provider here (`oauthProvider`): else no application is offered. */
  oauthProvider: Type.Object({ enabled: Type.Boolean() }),
})

export const portalConfigRoutes =
  ({ config }: Pick<QueryContext, 'config'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { emailAndPassword, emailVerification, user } = config
    const answer = {
      emailVerification: {
        // Requiring verification sends the link on sign-up as well (see sign-up).
        sendOnSignUp: emailVerification.sendOnSignUp || emailAndPassword.requireEmailVerification,
        required: emailAndPassword.requireEmailVerification,
      },
      deleteUser: { enabled: user.deleteUser.enabled, immediate: user.deleteUser.immediate },
      changeEmail: { enabled: user.changeEmail.enabled },
      branding: portalBranding(config.branding),
      sso: { domainVerificationPrefix: config.sso.domainVerification.tokenPrefix },
      oauthProvider: { enabled: config.oauthProvider.enabled },
    }
    app.get(
      '/portal-config',
      {
        schema: {
          summary: 'What this deployment is configured to do, for the portal (Tessera)',
          tags: ['Portal'],
          response: { 200: PortalConfig, ...errorResponses(...ANY_ROUTE_ERRORS) },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-cache')
        return answer
      },
    )
  }
